import Cadence
import CadenceSDL
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
    /// Called when the player toggles fullscreen or vsync, or the display changes.
    var onDisplayChange: (DisplayChange) -> Void = { _ in }

    private(set) var statistics = FrameStatistics()
    private var trace: TraceWriter?
    private var slider: FPSSlider
    private var adaptive: AdaptiveRateController?
    private let start: Nanoseconds
    private var lastFrame: DisplayLinkFrame?
    private var pendingHitches: [(at: Nanoseconds, duration: Nanoseconds)]
    private var injectedHitch = false
    private var nextInput = 0
    private var scheduleIndex = 0
    private var quit = false
    private var framesPresented = 0

    init(config: GameConfig, scene: Scene?, trace: TraceWriter?, start: Nanoseconds,
         displayRate: Double, describeDisplay: @escaping () -> DisplayStatus) {
        self.config = config
        self.scene = scene
        self.trace = trace
        self.start = start
        self.describeDisplay = describeDisplay
        pendingHitches = config.hitches
        slider = FPSSlider(request: FPSSlider.Request(config.fps), maximum: max(240, Int(displayRate.rounded(.up))))
        if let scene { slider.layout(width: scene.width, height: scene.height) }
    }

    // MARK: FrameLoopClient

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        let now = loop.clock.now - start
        if quit || Interrupts.requested || limitReached(now: now) { return false }
        if scene != nil { handleEvents(EventPump.poll(), loop) }
        pushScriptedInput(at: now)
        applyFPSSchedule(at: now)
        applyRequest(to: loop)
        return !quit
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) -> Double {
        let now = loop.clock.now - start
        loop.backend.doWork(config.workSchedule.value(at: now) ?? 0)
        if let hitch = pendingHitches.first, hitch.at <= now {
            pendingHitches.removeFirst()
            loop.backend.doWork(hitch.duration)
        }
        if injectedHitch {
            injectedHitch = false
            loop.backend.doWork(50_000_000)
        }
        lastFrame = frame
        if let scene, !config.isSimulation { draw(frame, on: scene) }
        return angle(at: frame.targetTimestampNanoseconds)
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        statistics.record(record)
        framesPresented += 1
        adaptive?.record(cost: record.cost(on: loop.backend.currentTiming()), at: record.presentTime)
        do { try trace?.write(record) } catch {
            printError("trace stopped: \(error)")
            trace = nil
        }
    }

    func idle(_ loop: FrameLoop) -> Bool {
        // Minimized or hidden: sleep until an event arrives, so the CPU rests.
        EventPump.wait(timeoutMs: 250)
        return !Interrupts.requested
    }

    // MARK: The animation

    /// The sprite's unwrapped angle in radians at time `t` on the link's clock.
    func angle(at t: Nanoseconds) -> Double {
        TimeUnit.seconds(t - start) * config.spinSpeed * .pi / 180
    }

    // MARK: End of run

    /// Draws the last frame again and saves it: the screenshot of the run.
    func saveScreenshot(to path: String) throws {
        guard let scene, let frame = lastFrame else { return }
        try scene.screenshot(to: path) { draw(frame, on: scene) }
    }

    /// Closes the trace and returns the one-line summary of the run; a second
    /// call only returns the summary.
    func finish() throws -> String {
        let summary = statistics.runSummary
        let writer = trace
        trace = nil
        try writer?.finish(summary: summary)
        return summary.line
    }

    // MARK: Input

    private func handleEvents(_ events: [Event], _ loop: FrameLoop) {
        let effective = lastFrame?.effectiveRate.rate.hz ?? 60
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
            case .keyDown(let key, let shift, _):
                _ = slider.handle(key: key, shift: shift, effective: effective)
            case .resized(let w, let h):
                scene?.resize(width: w, height: h)
                slider.layout(width: scene?.width ?? w, height: scene?.height ?? h)
            case .hidden:
                loop.link.isPaused = true
            case .shown where loop.link.isPaused:
                loop.link.isPaused = false
                // The time spent hidden is not a frame interval (nor a hitch).
                statistics.resetInterval()
            case .shown:
                break
            case .moved, .displayChanged:
                onDisplayChange(.displayMoved)
            case .mouseDown, .mouseUp, .mouseMotion:
                _ = slider.handle(event)
            }
        }
    }

    /// Scripted input for demos and tests, pushed through SDL's real event queue.
    private func pushScriptedInput(at now: Nanoseconds) {
        while nextInput < config.inputScript.count, config.inputScript[nextInput].at <= now {
            let action = config.inputScript[nextInput].action
            nextInput += 1
            switch action {
            case .key(let key, let shift):
                EventPump.pushKey(key, shift: shift)
            case .dragSlider(let fps):
                let from = slider.x(for: slider.knobFPS(effective: lastFrame?.effectiveRate.rate.hz ?? 60))
                let y = slider.track.y + slider.track.height / 2
                EventPump.pushMouseButton(down: true, x: from, y: y)
                EventPump.pushMouseMotion(x: (from + slider.x(for: fps)) / 2, y: y, dragging: true)
                EventPump.pushMouseMotion(x: slider.x(for: fps), y: y, dragging: true)
                EventPump.pushMouseButton(down: false, x: slider.x(for: fps), y: y)
            }
        }
    }

    private func applyFPSSchedule(at now: Nanoseconds) {
        while scheduleIndex < config.fpsSchedule.count, config.fpsSchedule[scheduleIndex].at <= now {
            slider.request = FPSSlider.Request(config.fpsSchedule[scheduleIndex].value)
            scheduleIndex += 1
        }
    }

    /// Hands the slider's request to the link (through the adaptive controller when adaptive).
    private func applyRequest(to loop: FrameLoop) {
        switch slider.request {
        case .displayRate:
            adaptive = nil
            loop.link.preferredFramesPerSecond = 0
        case .fps(let fps):
            adaptive = nil
            loop.link.preferredFramesPerSecond = Double(fps)
        case .adaptive:
            if adaptive == nil { adaptive = AdaptiveRateController() }
            let choices = RateChoices(loop.backend.currentTiming())
            loop.link.preferredFramesPerSecond = adaptive!.rate(for: choices)
        }
        loop.isAdaptive = slider.request == .adaptive
    }

    private func limitReached(now: Nanoseconds) -> Bool {
        switch config.limit {
        case .frames(let n): framesPresented >= n
        case .duration(let d): now >= d
        case .untilQuit: false
        }
    }

    // MARK: Drawing

    private func draw(_ frame: DisplayLinkFrame, on scene: Scene) {
        let status = describeDisplay()
        scene.beginFrame()
        if scene.showHitchDemo {
            scene.drawHitchDemo(timestampAngle: angle(at: frame.timestampNanoseconds),
                                targetAngle: angle(at: frame.targetTimestampNanoseconds))
        } else {
            scene.drawSprite(angle: angle(at: frame.targetTimestampNanoseconds))
        }
        let effective = frame.effectiveRate.rate.hz
        scene.drawOverlay(lines: overlayLines(frame, status))
        if scene.showGraph {
            scene.drawGraph(intervals: statistics.recentPresentIntervals, target: frame.effectiveRate.rate.period)
        }
        scene.drawSlider(slider, effective: effective, achievable: status.achievableRates)
        scene.endFrame()
    }

    private func overlayLines(_ frame: DisplayLinkFrame, _ status: DisplayStatus) -> [String] {
        let rate = frame.effectiveRate
        var requested: String
        switch slider.request {
        case .displayRate: requested = "display rate"
        case .fps(let fps): requested = "\(formatRate(fps)) FPS"
        case .adaptive: requested = "adaptive"
        }
        var effective = "\(formatHz(rate.rate.hz))"
        if rate.vsyncStride > 1 { effective += " (every \(rate.vsyncStride) vblanks)" }
        if rate.presentsPerFrame > 1 { effective += " (each frame shown \(rate.presentsPerFrame)×, LFC)" }
        let recent = statistics.intervalPercentiles([0.5, 0.99]).map {
            $0.map { String(format: "%.2f", TimeUnit.milliseconds($0)) } ?? "–"
        }
        return [
            "requested \(requested)   effective \(effective)",
            "display   \(status.summary)",
            "vsync     \(status.vsync)",
            "frame     p50 \(recent[0]) ms   p99 \(recent[1]) ms   hitches \(statistics.hitchCount)",
            "keys      ←/→ ±1 (shift ±10)  1/2/3 = 30/60/120  0 display  A adaptive",
            "          F fullscreen  V vsync  H hitch  G graph  T hitch demo  Q quit",
        ]
    }
}
