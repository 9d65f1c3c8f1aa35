import Cadence
import CadenceSDL
import Foundation

/// Issue 4's figures: the presenter against `SDL_Delay` and a busy-wait, on
/// the headless real-time path (SDL's offscreen driver, the software renderer,
/// vsync off, a trivial scene), so it needs no display.
struct PacingBench {
    /// The rates to pace at.
    let rates: [Int]
    /// Measured seconds per limiter and rate, run a second at a time.
    let rounds: Int
    /// Busy threads running alongside.
    let load: Int
    /// How the presenter spins in the final stretch.
    let spin: SpinStep

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

    /// The targets of the issue.
    static let p99Target: Nanoseconds = 100_000
    static let sdlDelayRatioTarget = 10.0
    static let cpuShareTarget = 0.25

    /// Runs every limiter at every rate and prints the table; false when a target was missed.
    func run() throws -> Bool {
        let target = try HeadlessTarget(title: "cadence-bench")
        let renderer = target.renderer
        let background = load > 0 ? BackgroundLoad(threads: load) : nil
        defer { background?.stop() }

        print("""
            Pacing: headless real-time path (SDL \(target.session.videoDriver) driver, \(renderer.backend) renderer, \
            vsync \(renderer.vsync.rawValue), trivial scene)
            \(rounds) s measured per limiter and rate, in 1 s turns round-robin, after 0.5 s of warm-up; timer slack \
            \(target.slackDescription); presenter spins with \(spin.rawValue); \
            \(load) busy background thread\(load == 1 ? "" : "s"); \(ProcessInfo.processInfo.activeProcessorCount) cores
            error = |present interval − 1/fps|, CPU = pacing thread's CPU time / wall time

              FPS  limiter      frames   p50 error   p99 error   max error     CPU
            """)
        var met = true
        for fps in rates {
            // Round-robin, a second at a time, so that a burst of load from
            // elsewhere falls on every limiter alike.
            let runs = LimiterRuns(renderer: renderer, fps: fps, spin: spin.body)
            var stretches: [Limiter: [Stretch]] = [:]
            for round in 0..<rounds {
                for limiter in Limiter.allCases {
                    let warmup = round == 0 ? fps / 2 : max(5, fps / 20)
                    stretches[limiter, default: []].append(runs.measure(limiter, warmup: warmup, frames: fps))
                }
            }
            var results: [Limiter: PacingFigures] = [:]
            for limiter in Limiter.allCases {
                let figures = PacingFigures(limiter: limiter, fps: fps, stretches: stretches[limiter] ?? [])
                results[limiter] = figures
                print(row(figures))
            }
            met = summarize(results, margin: runs.sleeper.margin) && met
        }
        return met
    }

    private func row(_ f: PacingFigures) -> String {
        let name = f.limiter.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
        return "  \(pad(String(f.fps), 3))  \(name) \(pad(String(f.intervals), 7))  \(ms(f.error(quantile: 0.5)))  "
            + "\(ms(f.p99))  \(ms(f.error(quantile: 1)))  \(pad(String(format: "%5.1f%%", f.cpuShare * 100), 7))"
    }

    /// Prints the ratios and targets for one rate; whether all were met.
    private func summarize(_ r: [Limiter: PacingFigures], margin: Nanoseconds) -> Bool {
        guard let presenter = r[.presenter], let delay = r[.sdlDelay], let busy = r[.busyWait] else { return false }
        let ratio = Double(delay.p99) / Double(max(1, presenter.p99))
        let cpu = presenter.cpuShare / max(1e-9, busy.cpuShare)
        let p99Met = presenter.p99 <= Self.p99Target
        let ratioMet = ratio >= Self.sdlDelayRatioTarget
        let cpuMet = cpu <= Self.cpuShareTarget
        print("        presenter p99 \(ms(presenter.p99)) (≤ 0.100 ms: \(p99Met ? "met" : "MISSED")); "
              + "p99 \(String(format: "%.1f", ratio))× lower than SDL_Delay (≥ 10×: \(ratioMet ? "met" : "MISSED")); "
              + "CPU \(String(format: "%.1f", cpu * 100))% of busy-wait's (≤ 25%: \(cpuMet ? "met" : "MISSED"))"
              + "; margin at the end \(ms(margin).trimmingCharacters(in: .whitespaces))")
        return p99Met && ratioMet && cpuMet
    }

    private func ms(_ ns: Nanoseconds) -> String { pad(String(format: "%.3f ms", TimeUnit.milliseconds(ns)), 10) }
    private func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
}
