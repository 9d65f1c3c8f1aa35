import Cadence
import CadenceSDL
import Foundation

/// The game's loop against a plain vsync loop on a real compositor (the
/// private headless Weston that `Scripts/bench compositor` starts, through
/// XWayland): how evenly each presents, and how long from the start of a
/// frame's work until present returns and until the frame is estimated to be
/// on the glass.
///
/// Both run in the same window with the same trivial scene, in interleaved
/// rounds so that a burst of load from elsewhere falls on both alike, and both
/// aim to present on every repaint.
struct CompositorBench {
    /// Measured seconds per contender, one second a round.
    let rounds: Int

    /// The two loops compared.
    enum Contender: String, CaseIterable {
        /// Display link, frame loop, SDL backend and precise sleeper, wired as the sample wires them.
        case cadence = "Cadence loop"
        /// Draw, present, repeat: vsync alone paces it.
        case plain = "plain vsync"
    }

    /// One frame as measured: when its work started and when present returned.
    struct Sample {
        let start: Nanoseconds
        let returned: Nanoseconds
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
        var window: Window? = try Window(title: "cadence-bench compositor", width: 640, height: 360)
        var renderer: Renderer? = try Renderer(window: window!, vsync: .on)
        defer { renderer = nil; window = nil }
        let refreshHz = Displays.info(window!.displayIndex)?.refreshHz ?? 0
        let runner = RoundRunner(renderer: renderer!, refreshHz: refreshHz)

        var samples: [Contender: [[Sample]]] = [:]
        for _ in 0..<rounds {
            for contender in Contender.allCases {
                samples[contender, default: []].append(runner.round(contender, seconds: 1))
            }
        }
        let period = Self.repaintPeriod(samples[.plain] ?? [])
        print("""
            Compositor: SDL \(session.videoDriver) driver on DISPLAY=\(ProcessInfo.processInfo.environment["DISPLAY"] ?? ""), \
            \(renderer!.backend) renderer, vsync on, 640x360 window, trivial scene; SDL reports \(refreshHz) Hz
            \(rounds) s measured per loop in 1 s rounds, interleaved, each after \(TimeUnit.milliseconds(Self.warmup)) ms of warm-up
            compositor period measured from the plain loop's present returns: \(milliseconds(period)) (\
            \(String(format: "%.2f", 1e9 / Double(period))) Hz)
            interval error = |present-return interval − period|; skipped = intervals over 1.5 periods
            latency = frame start → present return, and → the estimated vblank nearest that return (glass)

              loop            frames  skipped   error p50   error p99   → return p50   → return p99   → glass p50   → glass p99
            """)
        for contender in Contender.allCases {
            print(row(contender, samples[contender] ?? [], period: period))
        }
    }

    private func row(_ contender: Contender, _ rounds: [[Sample]], period: Nanoseconds) -> String {
        var errors: [Nanoseconds] = [], skipped = 0, toReturn: [Nanoseconds] = [], toGlass: [Nanoseconds] = []
        for samples in rounds {
            for (a, b) in zip(samples, samples.dropFirst()) {
                let interval = b.returned - a.returned
                errors.append(abs(interval - period))
                if interval * 2 > period * 3 { skipped += 1 }
            }
            // The glass time by one estimator fed the round's returns, the same for both loops.
            var estimator = VsyncEstimator(nominal: FrameRate(hz: 1e9 / Double(period)))
            for sample in samples {
                estimator.addPresent(at: sample.returned)
                toReturn.append(sample.returned - sample.start)
                if let grid = estimator.grid {
                    toGlass.append(grid.time(at: grid.nearestIndex(to: sample.returned)) - sample.start)
                }
            }
        }
        errors.sort(); toReturn.sort(); toGlass.sort()
        func cell(_ values: [Nanoseconds], _ q: Double, _ width: Int) -> String {
            rightAligned(values.nearestRank(q).map { milliseconds($0) } ?? "–", width)
        }
        let name = contender.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)
        return "  \(name) \(String(format: "%7d", errors.count + rounds.count)) \(String(format: "%8d", skipped))"
            + "\(cell(errors, 0.5, 12))\(cell(errors, 0.99, 12))\(cell(toReturn, 0.5, 15))\(cell(toReturn, 0.99, 15))"
            + "\(cell(toGlass, 0.5, 14))\(cell(toGlass, 0.99, 14))"
    }

    /// The compositor's period from the returns of a loop that presents every
    /// frame: the median interval is one repaint; every interval counts as
    /// the nearest whole number of repaints, and the period is the time they
    /// span over the repaints counted (intervals too far from a whole number
    /// to count are left out).
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

/// Runs one contender for a round in the shared window.
private final class RoundRunner {
    let renderer: Renderer
    let refreshHz: Int
    let clock = MonotonicClock()
    let sleeper: PreciseSleeper
    private var drawn = 0

    init(renderer: Renderer, refreshHz: Int) {
        self.renderer = renderer
        self.refreshHz = refreshHz
        sleeper = PreciseSleeper(clock: clock, spin: SpinWait.pause)
    }

    /// A warm-up, then `seconds` of measured frames.
    func round(_ contender: CompositorBench.Contender, seconds: Double) -> [CompositorBench.Sample] {
        let measured = clock.now + CompositorBench.warmup
        let end = measured + TimeUnit.nanoseconds(seconds: seconds)
        var samples: [CompositorBench.Sample] = []
        switch contender {
        case .plain:
            while clock.now < end {
                let start = clock.now
                draw()
                renderer.present()
                samples.append(.init(start: start, returned: clock.now))
            }
        case .cadence:
            let backend = SDLBackend(renderer: renderer, clock: clock, refreshHz: refreshHz) { [sleeper] in
                _ = sleeper.wait(until: $0)
            }
            let link = DisplayLink(jitterTolerance: SDLBackend.jitterTolerance)
            let client = LoopClient(until: end) { [unowned self] in draw() }
            FrameLoop(link: link, backend: backend).run(client)
            samples = client.samples
        }
        return samples.filter { $0.start >= measured }
    }

    /// The trivial scene: a square sliding across a cleared background; input is drained as a game would.
    private func draw() {
        _ = EventPump.poll()
        renderer.clear(Color(16, 16, 24))
        renderer.fill(Rect(x: (drawn * 3) % 608, y: 164, width: 32, height: 32), Color(240, 180, 40))
        renderer.flush()
        drawn += 1
    }
}

/// The Cadence contender's game: draws, and keeps each frame's start and present return.
private final class LoopClient: FrameLoopClient {
    let end: Nanoseconds
    let draw: () -> Void
    private(set) var samples: [CompositorBench.Sample] = []

    init(until end: Nanoseconds, draw: @escaping () -> Void) {
        self.end = end
        self.draw = draw
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool { loop.clock.now < end }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        draw()
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        samples.append(.init(start: record.callbackStart, returned: record.presentTime))
    }

    func idle(_ loop: FrameLoop) -> Bool { false }
}

/// A benchmark that cannot run where it was started.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
