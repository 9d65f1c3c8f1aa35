@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// The spinning-sprite game: the display link's client.
///
/// Each frame it advances to the link's `targetTimestamp` (when the frame will
/// be on the glass), so the sprite turns at exactly `spinSpeed` degrees per
/// second of glass time whatever the rate, and a rate change cannot hitch it.
/// Everything else here is the demo around that one line: the FPS slider,
/// the overlay, the frame-time graph, the hitch demo, traces and schedules.
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
    /// What the overlay and the graph report.
    var monitor = RunMonitor()
    /// The run's schedules, synthetic input, work and hitches.
    private var script: RunScript
    private let displayRate: Double
    /// When the hitch demo next flips the rate, and whether it is at the high rate.
    private var demoFlipAt: Nanoseconds?
    private var demoAtHighRate = false
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
    private var injectedHitch = false
    private var quit = false
    private var framesPresented = 0

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
        slider = FPSSlider(request: FPSSlider.Request(config.fps), maximum: max(240, Int(displayRate.rounded(.up))))
        if let scene { slider.layout(width: scene.width, height: scene.height, displayRate: displayRate) }
    }

    // MARK: FrameLoopClient

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        let now = loop.clock.now - start
        if quit || Interrupts.requested || limitReached(now: now) { return false }
        if scene != nil { handleEvents(pollEvents(), loop) }
        pushScriptedInput(at: now)
        if let request = script.request(dueBy: now) { slider.request = FPSSlider.Request(request) }
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

    // MARK: Input

    private func handleEvents(_ events: [Event], _ loop: FrameLoop) {
        let effective = sliderRate(lastFrame)
        for event in events {
            switch event {
            case .quit:
                quit = true
            case .keyDown(.escape, _, _), .keyDown(.letter("q"), _, _):
                quit = true
            case .keyDown(.letter("f"), _, false):
                onDisplayChange(.toggleFullscreen)
            case .keyDown(.letter("v"), _, false):
                onDisplayChange(.cycleVSync)
            case .keyDown(.letter("h"), _, _):
                injectedHitch = true
            case .keyDown(.letter("g"), _, false):
                scene?.showGraph.toggle()
            case .keyDown(.letter("t"), _, false):
                scene?.showHitchDemo.toggle()
            case .keyDown(.letter("l"), _, false):
                latency = latency == .low ? .smooth : .low
            case .keyDown(let key, let modifiers, _):
                _ = slider.handle(key: key, shift: modifiers.contains(.shift), effective: effective)
            case .resized(let w, let h):
                scene?.resize(width: w, height: h)
                slider.layout(width: scene?.width ?? w, height: scene?.height ?? h, displayRate: displayRate)
            case .hidden, .shown, .moved, .displayChanged, .keyUp, .mouseWheel, .controllerAdded, .controllerRemoved,
                 .controllerButton, .controllerAxis:
                break
            case .mouseDown(let x, let y, let button):
                guard let point = scene?.drawingPoint(x: x, y: y) else { break }
                _ = slider.handle(.mouseDown(x: point.x, y: point.y, button: button))
            case .mouseMotion(let x, let y, let dragging):
                guard let point = scene?.drawingPoint(x: x, y: y) else { break }
                _ = slider.handle(.mouseMotion(x: point.x, y: point.y, dragging: dragging))
            case .mouseUp:
                _ = slider.handle(event)
            }
        }
    }

    /// Scripted input for demos and tests, pushed through SDL's real event queue.
    private func pushScriptedInput(at now: Nanoseconds) {
        for action in script.input(dueBy: now) {
            switch action {
            case .key(let key, let shift):
                EventPump.pushKey(key, modifiers: shift ? .shift : [])
            case .dragSlider(let fps):
                let from = slider.x(for: slider.knobFPS(effective: sliderRate(lastFrame)))
                let y = slider.track.y + slider.track.height / 2
                EventPump.pushMouseButton(down: true, x: from, y: y)
                EventPump.pushMouseMotion(x: (from + slider.x(for: fps)) / 2, y: y, dragging: true)
                EventPump.pushMouseMotion(x: slider.x(for: fps), y: y, dragging: true)
                EventPump.pushMouseButton(down: false, x: slider.x(for: fps), y: y)
            }
        }
    }

    /// Hands the slider's request to the loop, which runs the adaptive controller itself.
    private func applyRequest(to loop: FrameLoop) {
        if scene?.showHitchDemo == true, !config.isSimulation {
            flipDemoRate(loop)
            return
        }
        demoFlipAt = nil
        switch slider.request {
        case .displayRate: loop.rateLimit = .displayRate
        // A cap is a cap: the highest rate at or below it that the display shows evenly.
        case .fps(let fps): loop.rateLimit = .cap(Double(fps))
        case .adaptive: loop.rateLimit = .adaptive
        case .uncapped: loop.rateLimit = .uncapped
        }
    }

    /// The rate the slider shows as in effect: the link's, or with nothing
    /// pacing (uncapped), the achieved one.
    func sliderRate(_ frame: DisplayLinkFrame?) -> Double {
        guard let frame else { return 60 }
        return frame.isPaced ? frame.effectiveRate.rate.hz : statistics.achievedFPS ?? frame.effectiveRate.rate.hz
    }

    /// The hitch demo changes the rate by itself: the display's rate and half
    /// of it, a second each, so the difference between its two objects shows.
    private func flipDemoRate(_ loop: FrameLoop) {
        let now = loop.clock.now
        if now >= demoFlipAt ?? now {
            demoAtHighRate.toggle()
            demoFlipAt = now + TimeUnit.nanosecondsPerSecond
        }
        let native = loop.backend.currentTiming().nativeRate.hz
        loop.rateLimit = .range(FrameRateRange(fps: demoAtHighRate ? native : native / 2))
    }

    private func limitReached(now: Nanoseconds) -> Bool {
        switch config.limit {
        case .frames(let n): framesPresented >= n
        case .duration(let d): now >= d
        case .untilQuit: false
        }
    }

}
