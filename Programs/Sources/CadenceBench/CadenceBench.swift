import ArgumentParser
@_spi(Programs) import Cadence
import Foundation

/// `cadence-bench`: the project's performance figures, judged here and never in tests.
@main
struct CadenceBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cadence-bench",
        abstract: "Pacing benchmarks. With no subcommand, runs them all.",
        subcommands: [All.self, Pacing.self, Latency.self, LinkCost.self, Soak.self, Compositor.self, RepaintSweepCommand.self,
                      CostLoopCommand.self, SoundCommand.self],
        defaultSubcommand: All.self
    )

    /// The stop signals' handlers first, before SDL or anything else starts.
    static func main() {
        BenchStop.install()
        main(nil)
    }

    /// Every benchmark, with default settings.
    struct All: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run every benchmark (the default).")
        @OptionGroup var pacing: PacingOptions

        func run() throws { try MainActor.assumeIsolated { try runAll() } }

        @MainActor private func runAll() throws {
            try LinkCost.report()
            guard !BenchStop.requested else { return }
            print()
            let met = try pacing.bench.run()
            guard !BenchStop.requested else { return }
            print()
            let latencyMet = try LatencyBench(fps: 60, work: 2_000_000, rounds: pacing.rounds,
                                              roundSeconds: pacing.roundSeconds).run()
            if !met || !latencyMet { throw ExitCode(2) }
        }
    }

    /// Cadence's latency modes against wait-after and wait-before limiters.
    struct Latency: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Input latency and interval error: Cadence low and smooth against wait-after-present (MangoHud late) and wait-before-present (early) limiters (exits 2 when low latency misses its targets).")
        @Option(help: "The cap, e.g. 60.") var fps = 60
        @Option(help: "Computation per frame in ms, besides drawing, e.g. 2.") var workMs = 2.0
        @Option(help: "Interleaved rounds; the table reports medians over them, e.g. 5.") var rounds = 5
        @Option(help: "Seconds each limiter runs in one round, e.g. 3.") var roundSeconds = 3
        @Flag(help: "Also run low latency kept in the normal scheduling class.") var explore = false

        func validate() throws {
            guard (1...1000).contains(fps) else { throw ValidationError("--fps: expected 1 to 1000, e.g. 60") }
            guard workMs.isFinite, workMs >= 0, workMs < 1000 / Double(fps) else {
                throw ValidationError("--work-ms: expected 0 up to less than one frame interval, e.g. 2")
            }
            guard (1...1000).contains(rounds) else { throw ValidationError("--rounds: expected 1 to 1000, e.g. 5") }
            guard (1...600).contains(roundSeconds) else { throw ValidationError("--round-seconds: expected 1 to 600, e.g. 3") }
        }

        func run() throws {
            let met = try MainActor.assumeIsolated { try LatencyBench(fps: fps, work: TimeUnit.nanoseconds(milliseconds: workMs), rounds: rounds,
                                       roundSeconds: roundSeconds, explore: explore).run() }
            if !met { throw ExitCode(2) }
        }
    }

    /// The presenter against SDL_Delay and a busy-wait.
    struct Pacing: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The presenter against SDL_Delay and a busy-wait, headless (exits 2 when a target is missed).")
        @OptionGroup var pacing: PacingOptions

        func run() throws {
            if try !MainActor.assumeIsolated({ try pacing.bench.run() }) { throw ExitCode(2) }
        }
    }

    /// When a sound played for a frame is heard, against the frame's glass time.
    struct SoundCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sound",
            abstract: "A click every few frames, each played for its frame's glass time (Sound.play(when:)), through SDL's disk audio driver in a real window (Scripts/bench sound runs it under Xvfb): when each is heard, against its frame's glass time.")
        @Option(help: "Seconds to run at 60 FPS, e.g. 10.") var seconds = 10
        @Option(help: "Frames from one click to the next, e.g. 15.") var every = 15

        func validate() throws {
            guard (2...600).contains(seconds) else { throw ValidationError("--seconds: expected 2 to 600, e.g. 10") }
            guard (2...600).contains(every) else { throw ValidationError("--every: expected 2 to 600, e.g. 15") }
        }

        func run() throws {
            do { try MainActor.assumeIsolated { try SoundBench(seconds: seconds, every: every).run() } } catch {
                printError("\(error)")
                throw ExitCode(69)
            }
        }
    }

    /// The long real-time run: pacing must not degrade, memory must not grow.
    struct Soak: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ten real minutes headless at 60 FPS, judged against the first minute (exits 2 when it degrades).")
        @Option(help: "Minutes to run, e.g. 10.") var minutes = 10
        @Option(help: "Rate to pace at, e.g. 60.") var fps = 60

        func validate() throws {
            guard (2...600).contains(minutes) else { throw ValidationError("--minutes: expected 2 to 600, e.g. 10") }
            guard (1...1000).contains(fps) else { throw ValidationError("--fps: expected 1 to 1000, e.g. 60") }
        }

        func run() throws {
            if try !MainActor.assumeIsolated({ try SoakBench(minutes: minutes, fps: fps).run() }) { throw ExitCode(2) }
        }
    }

    /// The game's loop against a plain vsync loop on a real compositor.
    struct Compositor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The game's loop against a plain vsync loop on the compositor at DISPLAY "
                + "(Scripts/bench compositor starts a private headless Weston for it).")
        @Option(help: "Measured seconds per loop, in 1 s rounds, e.g. 10.") var seconds = 10
        @Option(help: "The capped loops' cap, FPS.") var cap = 30
        @Option(help: "A file for each round's span (contender,start_ns,end_ns on CLOCK_MONOTONIC).")
        var roundsLog: String?

        func validate() throws {
            guard (1...3600).contains(seconds) else { throw ValidationError("--seconds: expected 1 to 3600, e.g. 10") }
            guard (1...1000).contains(cap) else { throw ValidationError("--cap: expected 1 to 1000, e.g. 30") }
        }

        func run() throws {
            do {
                try MainActor.assumeIsolated { try CompositorBench(rounds: seconds, cap: cap, roundsLog: roundsLog).run() }
            } catch let error as BenchError {
                printError("compositor: \(error)")
                throw ExitCode(66)
            }
        }
    }

    /// Which frame intervals a compositor shows at all, natively on Wayland.
    struct RepaintSweepCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repaint-sweep",
            abstract: "Commits each frame a fixed delay after the compositor showed the one before, for each delay, "
                + "and prints the intervals it then shows (native Wayland with wp_presentation: WAYLAND_DISPLAY).")
        @Option(help: "Delays in ms after the previous frame's glass time, comma-separated, e.g. 5,10,20,30.")
        var delays = "1,5,9,13,15,17,20,23,24,26,28,30,32,34,36,38,40"
        @Option(help: "Frames measured per delay, e.g. 60.") var frames = 60

        /// The delays in nanoseconds, or nil when one is not a number from 0 to 1000 ms.
        private var parsedDelays: [Nanoseconds]? {
            let parsed = delays.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard !parsed.isEmpty, parsed.allSatisfy({ $0.map { $0.isFinite && (0...1000).contains($0) } ?? false })
            else { return nil }
            return parsed.map { TimeUnit.nanoseconds(milliseconds: $0!) }
        }

        func validate() throws {
            guard parsedDelays != nil else {
                throw ValidationError("--delays: expected milliseconds from 0 to 1000 separated by commas, e.g. 5,10,20")
            }
            guard (2...10_000).contains(frames) else { throw ValidationError("--frames: expected 2 to 10000, e.g. 60") }
        }

        func run() throws {
            do {
                try RepaintSweep(delays: parsedDelays!, frames: frames).run()
            } catch let error as BenchError {
                printError("repaint-sweep: \(error)")
                throw ExitCode(66)
            }
        }
    }

    /// The display link's own cost.
    struct LinkCost: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link-cost", abstract: "The display link's cost per frame, and 10 simulated minutes at 240 Hz.")

        func run() throws { try MainActor.assumeIsolated { try Self.report() } }

        @MainActor static func report() throws {
            let figures = try LinkCostBench.run()
            print("Display link cost: \(String(format: "%.0f", figures.nanosecondsPerFrame)) ns per frame (target ≤ 1000 ns)")
            print("10 simulated minutes at 240 Hz with a CSV trace: \(figures.frames) frames in "
                  + "\(String(format: "%.2f", figures.simulatedTenMinutes)) s (target well under 10 s)")
        }
    }
}

/// The pacing benchmark's settings.
struct PacingOptions: ParsableArguments {
    @Option(help: "Rates to pace at, comma-separated, e.g. 60,78,144.")
    var fps = "60,78,144"

    @Option(help: "Interleaved rounds per rate; the table reports medians over them, e.g. 5.")
    var rounds = 5

    @Option(help: "Seconds each limiter runs in one round, e.g. 3.")
    var roundSeconds = 3

    @Flag(help: "Also run the presenter's explored variants: the earlier worst-case margin, sleeping alone, the normal class.")
    var explore = false

    @Option(help: "Busy background threads while measuring, e.g. 1 to keep the other core busy.")
    var load = 0

    @Option(help: "How the presenter spins in the last stretch: pause (the CPU's hint), yield (sched_yield) or none.")
    var spin = "pause"

    func validate() throws {
        guard let rates, !rates.isEmpty, rates.allSatisfy({ (1...1000).contains($0) }) else {
            throw ValidationError("--fps: expected rates from 1 to 1000 separated by commas, e.g. 60,78,144")
        }
        guard (1...1000).contains(rounds) else { throw ValidationError("--rounds: expected 1 to 1000, e.g. 5") }
        guard (1...600).contains(roundSeconds) else { throw ValidationError("--round-seconds: expected 1 to 600, e.g. 3") }
        guard (0...64).contains(load) else { throw ValidationError("--load: expected 0 to 64 threads, e.g. 1") }
        guard PacingBench.SpinStep(rawValue: spin) != nil else { throw ValidationError("--spin: expected pause, yield or none") }
    }

    /// The rates in `--fps`, or nil when one is not a whole number.
    private var rates: [Int]? {
        let parsed = fps.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        return parsed.contains(nil) ? nil : parsed.compactMap { $0 }
    }

    /// The benchmark these options describe (after validation).
    var bench: PacingBench {
        PacingBench(rates: rates!, rounds: rounds, roundSeconds: roundSeconds, load: load,
                    spin: PacingBench.SpinStep(rawValue: spin)!, explore: explore)
    }
}
