@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL

/// The frame limiters the benchmark compares.
enum Limiter: String, CaseIterable {
    /// Cadence: the display link, the frame loop and the precise sleeper, on
    /// the SDL backend, exactly as the sample game runs headless: in the
    /// `SCHED_FIFO` class where the system allows it, as `GameWindow` runs a paced loop.
    case presenter
    /// The presenter with the sleeper's earlier tuning (explored): a margin of
    /// the largest wake-up shortfall of the last 2 s plus 0.4 ms, no budget.
    case presenterWorst = "pres. worst"
    /// The presenter with a spin budget of 0: absolute sleeps alone (explored).
    case presenterSleep = "pres. sleep"
    /// The presenter kept in the normal scheduling class (explored).
    case presenterNormal = "pres. normal"
    /// The common limiter: after presenting, `SDL_Delay` the whole
    /// milliseconds left of the frame, measured from the frame's start.
    case sdlDelay = "SDL_Delay"
    /// Spin on the clock to each absolute deadline: as precise as pacing gets,
    /// at the cost of a whole core.
    case busyWait = "busy-wait"

    /// The three the targets compare.
    static let standard: [Limiter] = [.presenter, .sdlDelay, .busyWait]
    /// The presenter's variants explored for noisy machines.
    static let explored: [Limiter] = [.presenterWorst, .presenterSleep, .presenterNormal]
}

/// Runs the limiters at one rate, a stretch at a time: a trivial scene drawn
/// and presented, present-return times and the thread's CPU time measured.
@MainActor
final class LimiterRuns {
    let renderer: Renderer
    let clock = MonotonicClock()
    let rate: FrameRate
    /// The presenter's sleeper, kept across stretches as a game keeps it for its life.
    let sleeper: PreciseSleeper
    /// Each explored variant's own sleeper, so that what one learns cannot help another.
    private let variantSleepers: [Limiter: PreciseSleeper]
    private var drawn = 0

    /// Runs at `fps`; the presenter spins with `spin`.
    init(renderer: Renderer, fps: Int, spin: @escaping () -> Void) {
        self.renderer = renderer
        rate = FrameRate(hz: Double(fps))
        sleeper = PreciseSleeper(clock: clock, spin: spin)
        let worst = PreciseSleeper.Tuning(initialMargin: 1_000_000, marginBounds: 50_000...2_000_000, safety: 400_000,
                                          shortfallQuantile: 1)
        variantSleepers = [
            .presenterWorst: PreciseSleeper(clock: clock, tuning: worst, spinBudget: 1, spin: spin),
            .presenterSleep: PreciseSleeper(clock: clock, spinBudget: 0, spin: spin),
            .presenterNormal: PreciseSleeper(clock: clock, spin: spin),
        ]
    }

    /// Whether the system granted `SCHED_FIFO` the last time the presenter ran.
    private(set) var fifoGranted = false

    /// Runs `limiter` for `warmup + frames` frames and measures the last `frames`.
    func measure(_ limiter: Limiter, warmup: Int, frames: Int) -> Stretch {
        var recorder = Recorder(warmup: warmup, clock: clock)
        switch limiter {
        case .presenter, .presenterWorst, .presenterSleep:
            fifoGranted = RealTimeScheduling.request() != .normal
            runPresenter(&recorder, frames: warmup + frames, sleeper: variantSleepers[limiter] ?? sleeper)
            RealTimeScheduling.release()
        case .presenterNormal: runPresenter(&recorder, frames: warmup + frames, sleeper: variantSleepers[limiter]!)
        case .sdlDelay: runSDLDelay(&recorder, frames: warmup + frames)
        case .busyWait: runBusyWait(&recorder, frames: warmup + frames)
        }
        return recorder.stretch
    }

    /// The trivial scene: a square sliding across a cleared background,
    /// rasterised before the limiter waits (as the sample does), so that every
    /// limiter's present is only the swap.
    private func draw() {
        renderer.clear(Color(16, 16, 24))
        renderer.fill(Rect(x: (drawn * 3) % 224, y: 112, width: 32, height: 32), Color(240, 180, 40))
        renderer.flush()
        drawn += 1
    }

    private func runPresenter(_ recorder: inout Recorder, frames: Int, sleeper: PreciseSleeper) {
        let backend = SDLBackend(renderer: renderer, clock: clock, refreshHz: 0) { [sleeper] in sleeper.wait(until: $0) }
        let link = DisplayLink(preferred: FrameRateRange(fps: rate.hz), jitterTolerance: SDLBackend.jitterTolerance)
        let client = BenchClient(frames: frames, recorder: recorder) { [unowned self] in draw() }
        FrameLoop(link: link, backend: backend).run(client)
        recorder = client.recorder
    }

    private func runSDLDelay(_ recorder: inout Recorder, frames: Int) {
        let period = rate.period
        for _ in 0..<frames where !BenchStop.requested {
            let frameStart = clock.now
            draw()
            renderer.present()
            recorder.presented(at: clock.now)
            let elapsed = clock.now - frameStart
            if elapsed < period {
                SDLTimer.delay(milliseconds: UInt32((period - elapsed) / 1_000_000))
            }
        }
    }

    private func runBusyWait(_ recorder: inout Recorder, frames: Int) {
        var origin = clock.now
        var k: Int64 = 1
        for _ in 0..<frames where !BenchStop.requested {
            draw()
            var now = clock.now
            var deadline = origin + rate.offset(ofFrame: k)
            if now > deadline + rate.period {
                // Missed a whole frame: start the schedule afresh rather than catch up.
                (origin, k) = (now, 0)
                deadline = now
            }
            while now < deadline { now = clock.now }
            renderer.present()
            recorder.presented(at: clock.now)
            k += 1
        }
    }
}

/// What one stretch of frames measured.
struct Stretch {
    /// When present returned, for each measured frame.
    var presents: [Nanoseconds] = []
    /// Present return minus the frame's input time, where the limiter reports one.
    var latencies: [Nanoseconds] = []
    /// Presents that returned later than their target by more than
    /// ``FrameRecord/isLate(tolerance:)``'s tolerance, where the limiter has targets.
    var late = 0
    /// The pacing thread's CPU time over the measured frames.
    var cpu: Nanoseconds = 0
    /// Wall time over the measured frames.
    var wall: Nanoseconds = 0
}

/// Keeps present-return times after the warm-up, and the thread's CPU and
/// wall time from the end of the warm-up to the last present.
struct Recorder {
    let warmup: Int
    let clock: MonotonicClock
    private(set) var stretch = Stretch()
    private var count = 0
    private var cpuStart: Nanoseconds = 0
    private var wallStart: Nanoseconds = 0

    init(warmup: Int, clock: MonotonicClock) {
        self.warmup = warmup
        self.clock = clock
    }

    mutating func presented(at time: Nanoseconds, inputAt input: Nanoseconds? = nil, late: Bool = false) {
        if count == warmup {
            cpuStart = ThreadCPUClock.now()
            wallStart = time
        }
        if count >= warmup {
            stretch.presents.append(time)
            if let input { stretch.latencies.append(time - input) }
            if late { stretch.late += 1 }
            stretch.cpu = ThreadCPUClock.now() - cpuStart
            stretch.wall = time - wallStart
        }
        count += 1
    }
}

/// The game Cadence's loop runs in the benchmarks: does the frame's work and
/// records each present with its input time and whether it was late.
final class BenchClient: FrameLoopClient {
    let frames: Int
    var recorder: Recorder
    let doFrame: () -> Void
    /// Whether the loop's thread was in the real-time class, as seen at the first present.
    private(set) var ranRealTime: Bool?
    private var started = 0

    init(frames: Int, recorder: Recorder, doFrame: @escaping () -> Void) {
        self.frames = frames
        self.recorder = recorder
        self.doFrame = doFrame
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool { started < frames && !BenchStop.requested }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        doFrame()
        started += 1
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        recorder.presented(at: record.presentTime, inputAt: record.callbackStart, late: record.isLate())
        if ranRealTime == nil { ranRealTime = RealTimeScheduling.isInEffect }
    }

    func idle(_ loop: FrameLoop) -> Bool { false }
}
