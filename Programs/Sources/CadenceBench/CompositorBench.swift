@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// The game's loop against a plain vsync loop and a tutorial `SDL_Delay`
/// limiter on a real desktop (the private headless one that `Scripts/bench
/// compositor` or `Scripts/bench desktops` starts): the rate each reaches,
/// how evenly each presents, and how long from the start of a frame's work
/// until present returns and until the frame is estimated to be on the glass.
///
/// All run in the same window with the same trivial scene, in interleaved
/// rounds so that a burst of load from elsewhere falls on all alike; the
/// uncapped loops aim to present on every repaint, the capped ones at `cap`.
@MainActor
struct CompositorBench {
    /// Measured seconds per contender, one second a round.
    let rounds: Int
    /// The cap of the capped contenders, FPS.
    let cap: Int
    /// Where to write each round's measured span (`contender,start_ns,end_ns`,
    /// CLOCK_MONOTONIC), so a compositor's own record can judge the same rounds.
    let roundsLog: String?

    /// The loops compared.
    enum Contender: String, CaseIterable {
        /// Display link, frame loop, SDL backend and precise sleeper, wired by GameWindow as the sample's are.
        case cadence = "Cadence loop"
        /// Draw, present, repeat: vsync alone paces it.
        case plain = "plain vsync"
        /// The Cadence loop with its cap.
        case cadenceCap = "Cadence capped"
        /// Present with vsync, then `SDL_Delay` what is left of the cap's interval, in whole milliseconds.
        case sdlDelay = "SDL_Delay capped"
    }

    /// One frame as measured: when its work started, when present returned,
    /// and when it reached the glass by the loop's own clock (nil for the
    /// loops that have none).
    struct Sample {
        let start: Nanoseconds
        let returned: Nanoseconds
        var glass: Nanoseconds? = nil
    }

    /// The start of each round left unmeasured while the vblank estimates settle.
    static let warmup: Nanoseconds = 500_000_000

    func run() throws {
        let session: SDLSession
        do {
            session = try SDLSession()
        } catch {
            throw BenchError("no display server (\(error)); run through Scripts/bench compositor")
        }
        defer { session.shutdown() }
        guard session.videoDriver == "x11" || session.videoDriver == "wayland" else {
            throw BenchError("no compositor: SDL chose \"\(session.videoDriver)\" (run through Scripts/bench compositor)")
        }
        var game: GameWindow? = try GameWindow(session: session, title: "cadence-bench compositor",
                                               width: 640, height: 360)
        defer { game = nil }
        let renderer = game!.renderer
        let refreshHz = Displays.info(game!.window.displayIndex)?.refreshHz ?? 0
        let runner = RoundRunner(game: game!, cap: cap)

        var samples: [Contender: [[Sample]]] = [:]
        var spans = ""
        rounds: for _ in 0..<rounds {
            for contender in Contender.allCases {
                let round = runner.round(contender, seconds: 1)
                if BenchStop.requested { break rounds }
                samples[contender, default: []].append(round)
                if let first = round.first, let last = round.last {
                    spans += "\(contender.rawValue),\(first.start),\(last.returned)\n"
                }
            }
        }
        if let roundsLog {
            guard FileManager.default.createFile(atPath: roundsLog, contents: Data(spans.utf8)) else {
                throw BenchError("--rounds-log: cannot write \(roundsLog)")
            }
        }
        let period = Self.repaintPeriod(samples[.plain] ?? [])
        print("""
            Compositor: SDL \(session.videoDriver) driver on DISPLAY=\(ProcessInfo.processInfo.environment["DISPLAY"] ?? ""), \
            \(renderer.backend) renderer, vsync on, 640x360 window, trivial scene; SDL reports \(refreshHz) Hz; \
            display clock: \(game!.backend.clockDescription); capped loops at \(cap) FPS
            \(rounds) s measured per loop in 1 s rounds, interleaved, each after \(TimeUnit.milliseconds(Self.warmup)) ms of warm-up
            compositor period measured from the plain loop's present returns: \(milliseconds(period)) (\
            \(String(format: "%.2f", 1e9 / Double(period))) Hz)
            rate = frames a second by present returns, median over rounds; closest = shortest interval between returns
            interval error = |present-return interval − nearest whole number of periods|; skipped = intervals over 1.5 periods
            latency = frame start → present return, and → glass: for the Cadence loops their own glass time (on \
            the display clock above), for the others the vblank nearest the return of a grid fitted to their returns

              loop              frames     rate   closest  skipped   error p50   error p99   → return p50   → return p99   → glass p50   → glass p99
            """)
        if BenchStop.requested { print("  " + BenchStop.notice) }
        for contender in Contender.allCases {
            guard let rounds = samples[contender], !rounds.isEmpty else { continue }
            print(row(contender, rounds, period: period))
        }
    }

    private func row(_ contender: Contender, _ rounds: [[Sample]], period: Nanoseconds) -> String {
        var errors: [Nanoseconds] = [], skipped = 0, toReturn: [Nanoseconds] = [], toGlass: [Nanoseconds] = []
        var rates: [Double] = [], closest = Nanoseconds.max
        for samples in rounds {
            if let first = samples.first, let last = samples.last, samples.count > 1 {
                rates.append(Double(samples.count - 1) * 1e9 / Double(last.returned - first.returned))
            }
            // A capped loop presents every few periods: its error is from the nearest whole number of them.
            let step = max(1, Self.median(zip(samples, samples.dropFirst()).map { $1.returned - $0.returned }) * 4 / (period * 3))
            for (a, b) in zip(samples, samples.dropFirst()) {
                let interval = b.returned - a.returned
                closest = min(closest, interval)
                let periods = max(1, (interval + period / 2) / period)
                errors.append(abs(interval - periods * period))
                if interval * 2 > step * period * 3 { skipped += 1 }
            }
            // The glass time by the loop's own clock where it has one (the
            // platform's where the platform gives one); for the plain loops,
            // by an estimator fed the round's returns.
            var estimator = VsyncEstimator(nominal: FrameRate(hz: 1e9 / Double(period)))
            for sample in samples {
                estimator.addPresent(at: sample.returned)
                toReturn.append(sample.returned - sample.start)
                if let glass = sample.glass {
                    toGlass.append(glass - sample.start)
                } else if let grid = estimator.grid {
                    toGlass.append(grid.time(at: grid.nearestIndex(to: sample.returned)) - sample.start)
                }
            }
        }
        errors.sort(); toReturn.sort(); toGlass.sort()
        func cell(_ values: [Nanoseconds], _ q: Double, _ width: Int) -> String {
            rightAligned(values.nearestRank(q).map { milliseconds($0) } ?? "–", width)
        }
        let name = contender.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
        let rate = rates.isEmpty ? 0 : rates.sorted()[rates.count / 2]
        return "  \(name) \(String(format: "%7d", errors.count + rounds.count)) \(String(format: "%8.2f", rate))"
            + " \(rightAligned(milliseconds(closest), 9)) \(String(format: "%8d", skipped))"
            + "\(cell(errors, 0.5, 12))\(cell(errors, 0.99, 12))\(cell(toReturn, 0.5, 15))\(cell(toReturn, 0.99, 15))"
            + "\(cell(toGlass, 0.5, 14))\(cell(toGlass, 0.99, 14))"
    }

    /// The compositor's period from the returns of a loop that presents every
    /// frame: the median interval is one repaint; every interval counts as
    /// the nearest whole number of repaints, and the period is the time they
    /// span over the repaints counted (intervals too far from a whole number
    /// to count are left out).
    /// The median of `values`, 0 for none.
    static func median(_ values: [Nanoseconds]) -> Nanoseconds { values.sorted().nearestRank(0.5) ?? 0 }

    static func repaintPeriod(_ rounds: [[Sample]]) -> Nanoseconds {
        let intervals = rounds.flatMap { r in zip(r, r.dropFirst()).map { $1.returned - $0.returned } }.sorted()
        guard let guess = intervals.nearestRank(0.5), guess > 0 else { return 16_666_667 }
        var span: Nanoseconds = 0, repaints: Int64 = 0
        for interval in intervals {
            let k = Int64((Double(interval) / Double(guess)).rounded())
            guard k >= 1, abs(interval - k * guess) * 4 < guess else { continue }
            span += interval
            repaints += k
        }
        return repaints > 0 ? span / repaints : guess
    }

}
