@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// The spinning-sprite game: the display link's client.
///
/// Each frame it advances to the link's `targetTimestamp` (when the frame will
/// be on the glass), so the sprite turns at exactly `spinSpeed` degrees per
/// second of glass time whatever the rate, and a rate change cannot hitch it.
/// Everything else is the demo around that one line, each part in a file of
/// its own: the player's input (GameInput), what a frame draws (GameDrawing),
/// the overlay (Overlay), the hitch demo (HitchDemo), the FPS slider
/// (FPSSlider) and the run's outputs (RunOutputs).
final class Game: FrameLoopClient {
    let config: GameConfig
    /// Drawing, when there is anything to draw to (not in a pure simulation).
    let scene: Scene?
    /// Facts about the display for the overlay; refreshed when the display changes.
    var describeDisplay: () -> DisplayStatus
    /// Called when the player toggles fullscreen or vsync.
    var onDisplayChange: (DisplayChange) -> Void = { _ in }
    /// Every pending event, after the window's chores where there is a window
    /// (``GameWindow/pollEvents()`` pauses the link while hidden and follows
    /// the window to another display).
    var pollEvents: () -> [Event] = EventPump.poll

    // The statistics and the trace are also read, by `finish()`, on the
    // watchdog's thread or at exit while the main thread is parked inside SDL
    // for good (see `RunEnding`): never by two threads at once.
    nonisolated(unsafe) private(set) var statistics = FrameStatistics()
    /// What the statistics panel's line on a shortfall needs.
    var monitor = RunMonitor()
    /// The run's schedules, synthetic input, work and hitches.
    var script: RunScript
    let displayRate: Double
    /// The hitch demo's rate flips.
    private var hitchDemo = HitchDemo()
    nonisolated(unsafe) var trace: TraceWriter?
    /// Why the trace was abandoned during the run (a full disk), if it was.
    nonisolated(unsafe) var traceFailure: String?
    var slider: FPSSlider
    /// Low or smooth; the L key toggles it.
    var latency: FrameLatency
    let start: Nanoseconds
    var lastFrame: DisplayLinkFrame?
    /// What the overlay said in the last frame drawn.
    var lastStatus: DisplayStatus?
    /// The H key asked for a 50 ms hitch in the next frame.
    var injectedHitch = false
    /// The player asked to quit (Esc, Q, closing the window).
    var quit = false
    private var framesPresented = 0
    /// The last wait on a display that stopped answering: how long, and when
    /// it ended (the overlay says so for ``displayWaitShown``).
    var lastDisplayWait: (duration: Nanoseconds, endedAt: Nanoseconds)?
    static let displayWaitShown: Nanoseconds = 10_000_000_000

    init(config: GameConfig, scene: Scene?, trace: TraceWriter?, start: Nanoseconds,
         displayRate: Double, describeDisplay: @escaping () -> DisplayStatus) {
        self.config = config
        self.scene = scene
        self.trace = trace
        self.start = start
        self.describeDisplay = describeDisplay
        script = RunScript(config)
        latency = config.latency
        self.displayRate = displayRate
        slider = FPSSlider(request: config.fps, maximum: max(240, Int(displayRate.rounded(.up))))
        if let scene { slider.layout(width: scene.width, height: scene.height, displayRate: displayRate) }
    }

    // MARK: FrameLoopClient

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        let now = loop.clock.now - start
        if quit || Interrupts.requested || limitReached(now: now) { return false }
        if scene != nil { handleEvents(pollEvents(), loop) }
        pushScriptedInput(at: now)
        if let request = script.request(dueBy: now) { slider.request = request }
        applyRequest(to: loop)
        loop.latency = latency
        return !quit
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        // With low latency the loop waited since prepareFrame: read the input
        // that came meanwhile, so the frame shows what the player did just now.
        if scene != nil, loop.latency == .low { handleEvents(pollEvents(), loop) }
        let now = loop.clock.now - start
        loop.doWork(script.work(at: now, uncappedSimulation: config.isSimulation && loop.rateLimit == .uncapped))
        if injectedHitch {
            injectedHitch = false
            loop.doWork(50_000_000)
        }
        lastFrame = frame
        if let scene, !config.isSimulation {
            let status = describeDisplay()
            lastStatus = status
            draw(frame, on: scene, status: status)
        }
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        if let wait = record.displayWait {
            lastDisplayWait = (wait, record.presentTime)
            printError("the display stopped answering: waited \(String(format: "%.1f", TimeUnit.seconds(wait))) s, then went on")
        }
        statistics.record(record)
        framesPresented += 1
        monitor.record(record, cost: record.cost(on: loop.backend.currentTiming()))
        scene?.statistics.record(record)
        // The sample's own column: the sprite's unwrapped angle in radians, as drawn.
        do { try trace?.write(record, gameValues: [String(angle(at: record.targetTimestamp))]) } catch {
            // Dropping the writer removes its temporary file: an older trace stays as it was.
            printError("trace stopped: \(error)")
            traceFailure = "\(error)"
            trace = nil
        }
    }

    func idle(_ loop: FrameLoop) -> Bool {
        // Minimized or hidden: sleep until an event arrives, so the CPU rests.
        loop.backend.waitForEvents(timeout: FrameLoop.idleWait)
        // The time spent hidden is not a frame interval (nor a hitch).
        statistics.resetInterval()
        monitor.resetInterval()
        scene?.statistics.resetInterval()
        return !Interrupts.requested
    }

    // MARK: The animation

    /// The sprite's unwrapped angle in radians at time `t` on the link's clock.
    func angle(at t: Nanoseconds) -> Double {
        TimeUnit.seconds(t - start) * config.spinSpeed * .pi / 180
    }

    /// Hands the slider's request to the loop, which runs the adaptive controller itself.
    private func applyRequest(to loop: FrameLoop) {
        if scene?.showHitchDemo == true, !config.isSimulation {
            loop.rateLimit = hitchDemo.rateLimit(at: loop.clock.now, native: loop.backend.currentTiming().nativeRate.hz)
            return
        }
        hitchDemo.stop()
        loop.rateLimit = slider.request
    }

    /// The rate the slider shows as in effect: the link's, or with nothing
    /// pacing (uncapped), the achieved one.
    func sliderRate(_ frame: DisplayLinkFrame?) -> Double {
        guard let frame else { return 60 }
        return frame.isPaced ? frame.effectiveRate.rate.hz : statistics.achievedFPS ?? frame.effectiveRate.rate.hz
    }

    private func limitReached(now: Nanoseconds) -> Bool {
        switch config.limit {
        case .frames(let n): framesPresented >= n
        case .duration(let d): now >= d
        case .untilQuit: false
        }
    }
}
