import Cadence
import CadenceSDL
import Foundation

/// Input latency against evenness: Cadence's two latency modes beside the two
/// ways a plain frame limiter can wait, as MangoHud's `fps_limit_method` names them.
///
/// Every limiter reads "input" (the time it starts the frame), does the same
/// busy work, draws the trivial scene and presents, on the headless real-time
/// path. Latency is present return minus that input time; interval error is
/// |present interval − 1/fps|. All wait with the same precise sleeper, so only
/// *where* each waits differs. Interleaved rounds, medians over rounds.
struct LatencyBench {
    /// The rate to cap at.
    let fps: Int
    /// Busy work per frame, besides drawing.
    let work: Nanoseconds
    /// How many times every limiter runs.
    let rounds: Int
    /// Seconds each limiter runs in one round.
    let roundSeconds: Int

    /// The limiters compared.
    enum Kind: String, CaseIterable {
        /// Cadence's loop with ``FrameLatency/low``: waits before the callback.
        case cadenceLow = "Cadence low"
        /// Cadence's loop with ``FrameLatency/smooth``: waits after the work, presents on the target.
        case cadenceSmooth = "Cadence smooth"
        /// Wait after present (MangoHud "late"): input, work, present at once,
        /// then wait for the next frame's time. Low latency; intervals carry the work's jitter.
        case late = "wait after (late)"
        /// Wait before present (MangoHud "early"): input, work, wait for the
        /// frame's time, present. Even intervals; a whole frame of latency.
        case early = "wait before (early)"
    }

    func run() throws {
        let target = try HeadlessTarget(title: "cadence-bench latency")
        let runs = LatencyRuns(renderer: target.renderer, fps: fps, work: work)
        print("""
            Latency: headless real-time path (SDL \(target.session.videoDriver), \(target.renderer.backend) renderer, \
            vsync off), cap \(fps) FPS, \(String(format: "%.1f", TimeUnit.milliseconds(work))) ms of work per frame
            \(rounds) interleaved rounds of \(roundSeconds) s per limiter, medians over the rounds; every limiter waits \
            with the precise sleeper
            latency = present return − frame start (input read); error = |present interval − 1/fps|

              limiter              frames   latency p50   latency p99   error p50   error p99     CPU
            """)
        var perRound: [Kind: [LatencyFigures]] = [:]
        for round in 0..<rounds {
            for kind in Kind.allCases {
                let warmup = round == 0 ? fps / 2 : max(5, fps / 20)
                let stretch = runs.measure(kind, warmup: warmup, frames: fps * roundSeconds)
                perRound[kind, default: []].append(LatencyFigures(fps: fps, stretch: stretch))
            }
        }
        for kind in Kind.allCases {
            let r = perRound[kind] ?? []
            func median(_ f: (LatencyFigures) -> Nanoseconds) -> String { ms(r.map(f).sorted().median) }
            let cpu = r.map(\.cpuShare).sorted().median
            let name = kind.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)
            print("  \(name) \(rightAligned(String(r.reduce(0) { $0 + $1.frames }), 7))  \(median(\.latencyP50))    "
                  + "\(median(\.latencyP99))  \(median(\.errorP50))  \(median(\.errorP99))  "
                  + rightAligned(String(format: "%5.1f%%", cpu * 100), 7))
        }
    }

    private func ms(_ ns: Nanoseconds) -> String { milliseconds(ns, width: 10) }
}

/// One stretch's latency and pacing figures.
struct LatencyFigures {
    let frames: Int
    let latencyP50: Nanoseconds
    let latencyP99: Nanoseconds
    let errorP50: Nanoseconds
    let errorP99: Nanoseconds
    let cpuShare: Double

    init(fps: Int, stretch: Stretch) {
        frames = stretch.presents.count
        let latencies = stretch.latencies.sorted()
        latencyP50 = latencies.nearestRank(0.5) ?? 0
        latencyP99 = latencies.nearestRank(0.99) ?? 0
        let figures = PacingFigures(limiter: .presenter, fps: fps, stretches: [stretch])
        errorP50 = figures.error(quantile: 0.5)
        errorP99 = figures.p99
        cpuShare = figures.cpuShare
    }
}

/// Runs the latency limiters at one rate, a stretch at a time.
final class LatencyRuns {
    let renderer: Renderer
    let clock = MonotonicClock()
    let rate: FrameRate
    let work: Nanoseconds
    /// Each limiter's own sleeper, kept across its stretches.
    private var sleepers: [LatencyBench.Kind: PreciseSleeper] = [:]
    private var drawn = 0

    init(renderer: Renderer, fps: Int, work: Nanoseconds) {
        self.renderer = renderer
        rate = FrameRate(hz: Double(fps))
        self.work = work
        for kind in LatencyBench.Kind.allCases { sleepers[kind] = PreciseSleeper(clock: clock, spin: SpinWait.pause) }
    }

    /// Runs `kind` for `warmup + frames` frames and measures the last `frames`.
    func measure(_ kind: LatencyBench.Kind, warmup: Int, frames: Int) -> Stretch {
        var recorder = Recorder(warmup: warmup, clock: clock)
        let sleeper = sleepers[kind]!
        switch kind {
        case .cadenceLow: runCadence(&recorder, frames: warmup + frames, latency: .low, sleeper: sleeper)
        case .cadenceSmooth: runCadence(&recorder, frames: warmup + frames, latency: .smooth, sleeper: sleeper)
        case .late, .early: runLimiter(&recorder, frames: warmup + frames, waitFirst: kind == .early, sleeper: sleeper)
        }
        return recorder.stretch
    }

    /// The frame's work: a busy loop of `work`, then the trivial scene rasterised.
    private func doFrame() {
        let end = clock.now + work
        var sink = 0
        while clock.now < end { sink &+= 1 }
        _ = sink
        renderer.clear(Color(16, 16, 24))
        renderer.fill(Rect(x: (drawn * 3) % 224, y: 112, width: 32, height: 32), Color(240, 180, 40))
        renderer.flush()
        drawn += 1
    }

    private func runCadence(_ recorder: inout Recorder, frames: Int, latency: FrameLatency, sleeper: PreciseSleeper) {
        let backend = SDLBackend(renderer: renderer, clock: clock, refreshHz: 0) { sleeper.wait(until: $0) }
        let link = DisplayLink(preferred: FrameRateRange(fps: rate.hz), jitterTolerance: SDLBackend.jitterTolerance)
        let loop = FrameLoop(link: link, backend: backend)
        loop.latency = latency
        let client = LatencyClient(frames: frames, recorder: recorder) { [unowned self] in doFrame() }
        loop.run(client)
        recorder = client.recorder
    }

    /// A plain limiter on an absolute grid of deadlines: wait after the
    /// present for the next deadline ("late"), or before it ("early").
    private func runLimiter(_ recorder: inout Recorder, frames: Int, waitFirst: Bool, sleeper: PreciseSleeper) {
        var origin = clock.now
        var k: Int64 = 1
        for _ in 0..<frames {
            let input = clock.now
            doFrame()
            var deadline = origin + rate.offset(ofFrame: k)
            if clock.now > deadline + rate.period {
                // Missed a whole frame: start the schedule afresh rather than catch up.
                (origin, k) = (clock.now, 0)
                deadline = clock.now
            }
            if waitFirst { sleeper.wait(until: deadline) }
            renderer.present()
            recorder.presented(at: clock.now, inputAt: input)
            if !waitFirst { sleeper.wait(until: deadline) }
            k += 1
        }
    }
}

/// Cadence's game for the latency bench: the frame's work, each present recorded with its input time.
private final class LatencyClient: FrameLoopClient {
    let frames: Int
    var recorder: Recorder
    let doFrame: () -> Void
    private var started = 0

    init(frames: Int, recorder: Recorder, doFrame: @escaping () -> Void) {
        self.frames = frames
        self.recorder = recorder
        self.doFrame = doFrame
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool { started < frames }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        doFrame()
        started += 1
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        recorder.presented(at: record.presentTime, inputAt: record.callbackStart)
    }

    func idle(_ loop: FrameLoop) -> Bool { false }
}
