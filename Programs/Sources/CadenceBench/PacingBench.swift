@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// The presenter against `SDL_Delay` and a busy-wait, on the headless
/// real-time path (SDL's offscreen driver, the software renderer, vsync off, a
/// trivial scene), so it needs no display.
///
/// On a shared virtual machine the host takes the CPU for milliseconds at a
/// time, in stretches. So the limiters run in interleaved rounds (each for a
/// few seconds, one after another, the whole repeated), every round gives each
/// limiter its own p99 and CPU share, and the table reports the median over
/// the rounds: a noisy stretch falls on one round of each limiter alike rather
/// than on whichever limiter happened to run then.
@MainActor
struct PacingBench {
    /// The rates to pace at.
    let rates: [Int]
    /// How many times every limiter runs at each rate.
    let rounds: Int
    /// Seconds each limiter runs in one round.
    let roundSeconds: Int
    /// Busy threads running alongside.
    let load: Int
    /// How the presenter spins in the final stretch.
    let spin: SpinStep
    /// Whether to run the presenter's explored variants too.
    let explore: Bool

    /// The presenter's spin step between clock reads.
    enum SpinStep: String {
        /// The CPU's spin-wait hint (x86 `pause`): keeps the core. What the sample uses.
        case pause
        /// `sched_yield`: offers the core to any ready thread, which on a
        /// loaded machine may keep it for a whole time slice. For comparison.
        case yield
        /// Nothing: re-read the clock at once.
        case none

        var body: () -> Void {
            switch self {
            case .pause: SpinWait.pause
            case .yield: { _ = sched_yield() }
            case .none: {}
            }
        }
    }

    /// The targets, on the medians over rounds: the presenter's p99 at most
    /// the larger of 0.1 ms and 1.5× the busy-wait's, at least 3× below
    /// `SDL_Delay`'s, for at most 15% of the busy-wait's CPU.
    static let p99Floor: Nanoseconds = 100_000
    static let busyWaitRatioTarget = 1.5
    static let sdlDelayRatioTarget = 3.0
    static let cpuShareTarget = 0.15

    /// Runs every limiter at every rate and prints the table; false when a target was missed.
    func run() throws -> Bool {
        let target = try HeadlessTarget(title: "cadence-bench")
        let renderer = target.renderer
        let background = load > 0 ? BackgroundLoad(threads: load) : nil
        defer { background?.stop() }
        let limiters = Limiter.standard + (explore ? Limiter.explored : [])

        print("""
            Pacing: headless real-time path (SDL \(target.session.videoDriver) driver, \(renderer.backend) renderer, \
            vsync \(renderer.vsync.rawValue), trivial scene)
            \(rounds) interleaved rounds of \(roundSeconds) s per limiter and rate, medians over the rounds; timer slack \
            \(target.slackDescription); presenter spins with \(spin.rawValue); \
            \(load) busy background thread\(load == 1 ? "" : "s"); \(ProcessInfo.processInfo.activeProcessorCount) cores
            error = |present interval − 1/fps|, CPU = pacing thread's CPU time / wall time; p99 range = best–worst round

              FPS  limiter       frames   p50 error   p99 error   max error     CPU   p99 range
            """)
        var met = true
        for fps in rates where !BenchStop.requested {
            let runs = LimiterRuns(renderer: renderer, fps: fps, spin: spin.body)
            var perRound: [Limiter: [PacingFigures]] = [:]
            rounds: for round in 0..<rounds {
                for limiter in limiters {
                    let warmup = round == 0 ? fps / 2 : max(5, fps / 20)
                    let stretch = runs.measure(limiter, warmup: warmup, frames: fps * roundSeconds)
                    if BenchStop.requested { break rounds }
                    perRound[limiter, default: []].append(PacingFigures(limiter: limiter, fps: fps, stretches: [stretch]))
                }
            }
            if BenchStop.requested { print("        " + BenchStop.notice) }
            let medians = perRound.mapValues(RoundMedians.init)
            for limiter in limiters { if let m = medians[limiter] { print(row(m)) } }
            if !runs.fifoGranted { print("        (SCHED_FIFO refused here: the presenter ran in the normal class)") }
            if !BenchStop.requested { met = summarize(medians, margin: runs.sleeper.margin) && met }
        }
        return met
    }

    private func row(_ m: RoundMedians) -> String {
        let name = m.limiter.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
        return "  \(rightAligned(String(m.fps), 3))  \(name) \(rightAligned(String(m.intervals), 7))  \(ms(m.p50))  \(ms(m.p99))  "
            + "\(ms(m.maximum))  \(rightAligned(String(format: "%5.1f%%", m.cpuShare * 100), 7))  "
            + "\(String(format: "%.3f–%.3f", TimeUnit.milliseconds(m.p99Range.lowerBound), TimeUnit.milliseconds(m.p99Range.upperBound)))"
    }

    /// Prints the ratios and targets for one rate; whether all were met.
    private func summarize(_ r: [Limiter: RoundMedians], margin: Nanoseconds) -> Bool {
        guard let presenter = r[.presenter], let delay = r[.sdlDelay], let busy = r[.busyWait] else { return false }
        let p99Bound = max(Self.p99Floor, Nanoseconds(Double(busy.p99) * Self.busyWaitRatioTarget))
        let ratio = Double(delay.p99) / Double(max(1, presenter.p99))
        let cpu = presenter.cpuShare / max(1e-9, busy.cpuShare)
        let p99Met = presenter.p99 <= p99Bound
        let ratioMet = ratio >= Self.sdlDelayRatioTarget
        let cpuMet = cpu <= Self.cpuShareTarget
        print("        presenter p99 \(ms(presenter.p99).trimmed) (≤ \(ms(p99Bound).trimmed): \(p99Met ? "met" : "MISSED")); "
              + "\(String(format: "%.1f", ratio))× lower than SDL_Delay (≥ 3×: \(ratioMet ? "met" : "MISSED")); "
              + "CPU \(String(format: "%.1f", cpu * 100))% of busy-wait's (≤ 15%: \(cpuMet ? "met" : "MISSED"))"
              + "; margin at the end \(ms(margin).trimmed)")
        return p99Met && ratioMet && cpuMet
    }

    private func ms(_ ns: Nanoseconds) -> String { milliseconds(ns, width: 10) }
}

/// One limiter's figures at one rate, as medians over its rounds.
struct RoundMedians {
    let limiter: Limiter
    let fps: Int
    /// Intervals measured over all rounds.
    let intervals: Int
    let p50: Nanoseconds
    let p99: Nanoseconds
    let maximum: Nanoseconds
    let cpuShare: Double
    /// The best and the worst round's p99.
    let p99Range: ClosedRange<Nanoseconds>

    init(_ rounds: [PacingFigures]) {
        limiter = rounds[0].limiter
        fps = rounds[0].fps
        intervals = rounds.reduce(0) { $0 + $1.intervals }
        p50 = rounds.map { $0.error(quantile: 0.5) }.sorted().median
        p99 = rounds.map(\.p99).sorted().median
        maximum = rounds.map { $0.error(quantile: 1) }.sorted().median
        cpuShare = rounds.map(\.cpuShare).sorted().median
        let p99s = rounds.map(\.p99)
        p99Range = p99s.min()!...p99s.max()!
    }
}

extension Array where Element: Comparable {
    /// The middle value of these sorted values (the lower middle for an even count).
    var median: Element { self[(count - 1) / 2] }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
