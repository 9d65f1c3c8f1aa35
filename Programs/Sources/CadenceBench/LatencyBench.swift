@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// Input latency against evenness: Cadence's two latency modes beside the two
/// ways a plain frame limiter can wait, as MangoHud's `fps_limit_method` names them.
///
/// Every limiter reads "input" (the time it starts the frame), does the same
/// fixed computation (``FixedWork``), draws the trivial scene and presents, on
/// the headless real-time path. Latency is present return minus that input
/// time; interval error is |present interval − 1/fps|; a present is late more
/// than ``FrameRecord/lateTolerance`` after its target. All wait with the same
/// precise sleeper, so only *where* each waits differs. Interleaved rounds,
/// medians over rounds, late presents summed over them.
@MainActor
struct LatencyBench {
    /// The rate to cap at.
    let fps: Int
    /// Computation per frame, besides drawing, as long as it takes on an undisturbed core.
    let work: Nanoseconds
    /// How many times every limiter runs.
    let rounds: Int
    /// Seconds each limiter runs in one round.
    let roundSeconds: Int
    /// Whether to run the explored variant too (low latency kept in the normal scheduling class).
    var explore = false

    /// The limiters compared.
    enum Kind: String, CaseIterable {
        /// Cadence's loop with ``FrameLatency/low``: waits before the callback,
        /// in the real-time scheduling class where the system allows it.
        case cadenceLow = "Cadence low"
        /// Low latency kept in the normal scheduling class (explored): what a
        /// process that may not have the real-time class gets.
        case cadenceLowNormal = "Cadence low, normal"
        /// Cadence's loop with ``FrameLatency/smooth``: waits after the work, presents on the target.
        case cadenceSmooth = "Cadence smooth"
        /// Wait after present (MangoHud "late"): input, work, present at once,
        /// then wait for the next frame's time. Low latency; intervals carry the work's jitter.
        case late = "wait after (late)"
        /// Wait before present (MangoHud "early"): input, work, wait for the
        /// frame's time, present. Even intervals; a whole frame of latency.
        case early = "wait before (early)"
    }

    /// Runs the rounds and prints the table. Returns whether low latency met
    /// its real-time targets: a latency p50 of at most ``lowLatencyTarget``, and
    /// no more late frames than twice smooth's over the same rounds.
    func run() throws -> Bool {
        let target = try HeadlessTarget(title: "cadence-bench latency")
        let runs = LatencyRuns(renderer: target.renderer, fps: fps, work: work)
        print("""
            Latency: headless real-time path (SDL \(target.session.videoDriver), \(target.renderer.backend) renderer, \
            vsync off), cap \(fps) FPS, \(String(format: "%.1f", TimeUnit.milliseconds(work))) ms of computation per frame
            \(rounds) interleaved rounds of \(roundSeconds) s per limiter, medians over the rounds; every limiter waits \
            with the precise sleeper
            latency = present return − frame start (input read); error = |present interval − 1/fps|

              limiter              frames   late   latency p50   latency p99   error p50   error p99     CPU
            """)
        let kinds = Kind.allCases.filter { explore || $0 != .cadenceLowNormal }
        var perRound: [Kind: [LatencyFigures]] = [:]
        rounds: for round in 0..<rounds {
            for kind in kinds {
                let warmup = round == 0 ? fps / 2 : max(5, fps / 20)
                let stretch = runs.measure(kind, warmup: warmup, frames: fps * roundSeconds)
                if BenchStop.requested { break rounds }
                perRound[kind, default: []].append(LatencyFigures(fps: fps, stretch: stretch))
            }
        }
        if BenchStop.requested { print(BenchStop.notice) }
        for kind in kinds {
            guard let r = perRound[kind], !r.isEmpty else { continue }
            func median(_ f: (LatencyFigures) -> Nanoseconds) -> String { ms(r.map(f).sorted().median) }
            let cpu = r.map(\.cpuShare).sorted().median
            let name = kind.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)
            let late = kind == .late ? "—" : String(lateFrames(kind))
            print("  \(name) \(rightAligned(String(r.reduce(0) { $0 + $1.frames }), 7)) \(rightAligned(late, 6))  "
                  + "\(median(\.latencyP50))    \(median(\.latencyP99))  \(median(\.errorP50))  \(median(\.errorP99))  "
                  + rightAligned(String(format: "%5.1f%%", cpu * 100), 7))
        }
        func lateFrames(_ kind: Kind) -> Int { perRound[kind]?.reduce(0) { $0 + $1.late } ?? 0 }
        let lowP50 = perRound[.cadenceLow]?.map(\.latencyP50).sorted().median ?? 0
        let (low, smooth) = (lateFrames(.cadenceLow), lateFrames(.cadenceSmooth))
        if BenchStop.requested { return true }
        let met = lowP50 <= Self.lowLatencyTarget && low <= 2 * smooth
        if !runs.realTimeGranted { print("  (the real-time class was refused here: \"Cadence low\" ran in the normal class)") }
        print("""

            late = presents more than \(milliseconds(FrameRecord.lateTolerance)) after their target, summed over \
            the rounds (the wait-after limiter has no targets)
            Cadence low: latency p50 \(milliseconds(lowP50)) (target ≤ \(milliseconds(Self.lowLatencyTarget))), \
            \(low) late against smooth's \(smooth) (target ≤ \(2 * smooth)): \(met ? "met" : "MISSED")
            """)
        return met
    }

    /// The input-to-present latency low latency must reach in real time.
    static let lowLatencyTarget: Nanoseconds = 5_000_000

    private func ms(_ ns: Nanoseconds) -> String { milliseconds(ns, width: 10) }
}

/// One stretch's latency and pacing figures.
struct LatencyFigures {
    let frames: Int
    let late: Int
    let latencyP50: Nanoseconds
    let latencyP99: Nanoseconds
    let errorP50: Nanoseconds
    let errorP99: Nanoseconds
    let cpuShare: Double

    init(fps: Int, stretch: Stretch) {
        frames = stretch.presents.count
        late = stretch.late
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
@MainActor
final class LatencyRuns {
    let renderer: Renderer
    let clock = MonotonicClock()
    let rate: FrameRate
    let work: FixedWork
    /// Each limiter's own sleeper, kept across its stretches.
    private var sleepers: [LatencyBench.Kind: PreciseSleeper] = [:]
    private var drawn = 0

    init(renderer: Renderer, fps: Int, work: Nanoseconds) {
        self.renderer = renderer
        rate = FrameRate(hz: Double(fps))
        self.work = FixedWork(lasting: work, clock: clock)
        for kind in LatencyBench.Kind.allCases { sleepers[kind] = PreciseSleeper(clock: clock, spin: SpinWait.pause) }
    }

    /// Whether low latency got the real-time class the last time it ran.
    private(set) var realTimeGranted = false

    /// Runs `kind` for `warmup + frames` frames and measures the last `frames`.
    func measure(_ kind: LatencyBench.Kind, warmup: Int, frames: Int) -> Stretch {
        var recorder = Recorder(warmup: warmup, clock: clock)
        let sleeper = sleepers[kind]!
        switch kind {
        case .cadenceLow, .cadenceLowNormal:
            runCadence(&recorder, frames: warmup + frames, latency: .low, sleeper: sleeper,
                       raisePriority: kind == .cadenceLow)
        case .cadenceSmooth: runCadence(&recorder, frames: warmup + frames, latency: .smooth, sleeper: sleeper)
        case .late, .early: runLimiter(&recorder, frames: warmup + frames, waitFirst: kind == .early, sleeper: sleeper)
        }
        return recorder.stretch
    }

    /// The frame's work: the fixed computation, then the trivial scene rasterised.
    private func doFrame() {
        work.run()
        renderer.clear(Color(16, 16, 24))
        renderer.fill(Rect(x: (drawn * 3) % 224, y: 112, width: 32, height: 32), Color(240, 180, 40))
        renderer.flush()
        drawn += 1
    }

    private func runCadence(_ recorder: inout Recorder, frames: Int, latency: FrameLatency, sleeper: PreciseSleeper,
                            raisePriority: Bool = true) {
        let backend = SDLBackend(renderer: renderer, clock: clock, refreshHz: 0) { sleeper.wait(until: $0) }
        backend.raisesPriorityForLowLatency = raisePriority
        let link = DisplayLink(preferred: FrameRateRange(fps: rate.hz), jitterTolerance: SDLBackend.jitterTolerance)
        let loop = FrameLoop(link: link, backend: backend)
        loop.latency = latency
        let client = BenchClient(frames: frames, recorder: recorder) { [unowned self] in doFrame() }
        loop.run(client)
        recorder = client.recorder
        if latency == .low && raisePriority { realTimeGranted = client.ranRealTime ?? false }
    }

    /// A plain limiter on an absolute grid of deadlines: wait after the
    /// present for the next deadline ("late"), or before it ("early").
    private func runLimiter(_ recorder: inout Recorder, frames: Int, waitFirst: Bool, sleeper: PreciseSleeper) {
        var origin = clock.now
        var k: Int64 = 1
        for _ in 0..<frames where !BenchStop.requested {
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
            // Only the wait-before limiter aims its presents at the deadlines.
            recorder.presented(at: clock.now, inputAt: input,
                               late: waitFirst && clock.now - deadline > FrameRecord.lateTolerance)
            if !waitFirst { sleeper.wait(until: deadline) }
            k += 1
        }
    }
}
