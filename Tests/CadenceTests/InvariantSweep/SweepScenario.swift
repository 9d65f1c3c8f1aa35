@_spi(Programs) @testable import Cadence

/// An exact rate or time ratio, written as the test means it (60000/1001),
/// handed to the simulator as a ``FrameRate`` and to the oracle as its own rational.
struct Ratio: Sendable, CustomStringConvertible {
    let numerator: Int64
    let denominator: Int64

    init(_ numerator: Int64, _ denominator: Int64 = 1) {
        self.numerator = numerator
        self.denominator = denominator
    }

    var rate: FrameRate { FrameRate(numerator: numerator, denominator: denominator) }
    var hz: Double { Double(numerator) / Double(denominator) }
    var exact: Oracle.Q { Oracle.Q(numerator, denominator) }
    var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}

/// One scenario of the sweep, described once and handed both to the simulator
/// and to the independent oracle, so the two never share an interpretation.
struct SweepScenario: Sendable, CustomStringConvertible {
    enum PanelSpec: Sendable, CustomStringConvertible {
        case fixed(Ratio)
        case variable(Ratio, Ratio)
        case unknown

        var simulated: SimulatedDisplay.Panel {
            switch self {
            case .fixed(let r): .fixed(r.rate)
            case .variable(let low, let high): .variable(minimum: low.rate, maximum: high.rate)
            case .unknown: .unknown
            }
        }
        var oracle: Oracle.Panel {
            switch self {
            case .fixed(let r): .fixed(r.exact)
            case .variable(let low, let high): .variable(min: low.exact, max: high.exact)
            case .unknown: .unknown
            }
        }
        var description: String {
            switch self {
            case .fixed(let r): "fixed:\(r)"
            case .variable(let low, let high): "vrr:\(low)-\(high)"
            case .unknown: "unknown"
            }
        }
    }

    enum RequestSpec: Sendable, CustomStringConvertible {
        case displayRate
        case preferred(Ratio)
        case cap(Ratio)
        case range(minimum: Ratio?, maximum: Ratio?, preferred: Ratio?)
        case uncapped

        /// The loop's setting for the request.
        var limit: FrameRateLimit { if case .uncapped = self { .uncapped } else { .range(frameRateRange) } }

        var frameRateRange: FrameRateRange {
            switch self {
            case .displayRate, .uncapped: .displayRate
            case .preferred(let r): FrameRateRange(fps: r.hz)
            case .cap(let n): FrameRateRange(maximum: n.hz, preferred: n.hz)
            case .range(let low, let high, let preferred):
                FrameRateRange(minimum: low?.hz ?? 0, maximum: high?.hz ?? 0, preferred: preferred?.hz ?? 0)
            }
        }
        var oracle: Oracle.Request {
            switch self {
            case .displayRate: .displayRate
            case .preferred(let r): .preferred(r.exact)
            case .cap(let n): .cap(n.exact)
            case .range(let low, let high, let preferred): .range(min: low?.exact, max: high?.exact, preferred: preferred?.exact)
            case .uncapped: .uncapped
            }
        }
        var description: String {
            switch self {
            case .displayRate: "display"
            case .uncapped: "uncapped"
            case .preferred(let r): "preferred \(r)"
            case .cap(let n): "cap \(n)"
            case .range(let low, let high, let preferred):
                "range \(low.map(\.description) ?? "-")…\(high.map(\.description) ?? "-") pref \(preferred.map(\.description) ?? "-")"
            }
        }
    }

    var seed: UInt64 = 0
    var panel: PanelSpec
    var vsync = true
    var fullscreen = true
    var vrrAllowed = true
    var displayChanges: [(at: Nanoseconds, panel: PanelSpec)] = []
    var requests: [(at: Nanoseconds, request: RequestSpec)] = [(0, .displayRate)]
    /// From each `at` on, every callback works `duration`.
    var work: [(at: Nanoseconds, duration: Nanoseconds)] = [(0, 1_000_000)]
    /// The first callback at or after `at` works `duration` more, once.
    var hitches: [(at: Nanoseconds, duration: Nanoseconds)] = []
    var duration: Nanoseconds = 2_000_000_000
    /// When callbacks start: the rules hold in both modes.
    var latency: FrameLatency = .smooth
    /// The work moves in steps and ramps, each change held long enough for
    /// the step rules to judge (`WorkStepScenarios`).
    var workSteps = false

    var oracle: Oracle.Scenario {
        Oracle.Scenario(panel: panel.oracle, vsync: vsync, fullscreen: fullscreen, vrrAllowed: vrrAllowed,
                        displayChanges: displayChanges.map { ($0.at, $0.panel.oracle) },
                        requests: requests.map { ($0.at, $0.request.oracle) }, duration: duration,
                        work: work.map { ($0.at, $0.duration) }, hitches: hitches.map(\.at),
                        lowLatency: latency == .low, workSteps: workSteps)
    }

    var description: String {
        func ms(_ t: Nanoseconds) -> String { "\(Double(t) / 1e6)ms" }
        return "seed \(seed): \(panel) vsync \(vsync) fullscreen \(fullscreen) vrr-allowed \(vrrAllowed); "
            + "changes \(displayChanges.map { "\(ms($0.at)):\($0.panel)" }); "
            + "requests \(requests.map { "\(ms($0.at)):\($0.request)" }); "
            + "work \(work.map { "\(ms($0.at)):\(ms($0.duration))" }); "
            + "hitches \(hitches.map { "\(ms($0.at)):\(ms($0.duration))" }); duration \(ms(duration)); latency \(latency)"
            + (workSteps ? "; work steps judged" : "")
    }
}

extension SweepScenario {
    /// Odd and common refresh rates: NTSC's 60000/1001 and 24000/1001, 59.94,
    /// 143.856, and the usual 50 to 360.
    static let fixedRates = [Ratio(60), Ratio(2997, 50), Ratio(60000, 1001), Ratio(17982, 125), Ratio(165), Ratio(360),
                             Ratio(144), Ratio(120), Ratio(75), Ratio(50), Ratio(24000, 1001), Ratio(240), Ratio(90),
                             Ratio(100), Ratio(30)]
    /// Wide, narrow, NTSC-edged and degenerate (equal ends) variable ranges.
    static let variableRanges = [(Ratio(48), Ratio(144)), (Ratio(40), Ratio(60)), (Ratio(50), Ratio(60)),
                                 (Ratio(20), Ratio(60)), (Ratio(48), Ratio(240)), (Ratio(30), Ratio(165)),
                                 (Ratio(90), Ratio(100)), (Ratio(48), Ratio(360)), (Ratio(144), Ratio(144)),
                                 (Ratio(59), Ratio(60)), (Ratio(24000, 1001), Ratio(60000, 1001)), (Ratio(9), Ratio(100))]
    /// Rates a game asks for: 1 Hz, fractions, divisors and non-divisors of common rates, above every display.
    static let requestRates = [Ratio(1), Ratio(10), Ratio(47, 2), Ratio(24), Ratio(30), Ratio(40), Ratio(45), Ratio(50),
                               Ratio(2997, 50), Ratio(60), Ratio(72), Ratio(75), Ratio(78), Ratio(90), Ratio(100),
                               Ratio(120), Ratio(17982, 125), Ratio(144), Ratio(165), Ratio(200), Ratio(240),
                               Ratio(300), Ratio(360), Ratio(1000)]
    static let workMilliseconds: [Nanoseconds] = [0, 1, 2, 4, 8, 12, 20, 35]
    static let hitchMilliseconds: [Nanoseconds] = [1, 5, 17, 50, 200, 2_000]

    /// A scenario drawn from `seed` alone, so a failure replays exactly.
    static func random(seed: UInt64) -> SweepScenario {
        var g = SeededGenerator(seed: seed)
        // One in four from the class of work longer than the request's interval, one in five from work in steps and ramps.
        switch Int.random(in: 0..<20, using: &g) {
        case 0..<5: return overloaded(seed: seed, using: &g)
        case 5..<9: return stepped(seed: seed, using: &g)
        default: break
        }
        func panel() -> PanelSpec {
            switch Int.random(in: 0..<10, using: &g) {
            case 0..<5: return .fixed(fixedRates.randomElement(using: &g)!)
            case 5..<9:
                let range = variableRanges.randomElement(using: &g)!
                return .variable(range.0, range.1)
            default: return .unknown
            }
        }
        func request() -> RequestSpec {
            let rate = { requestRates.randomElement(using: &g)! }
            switch Int.random(in: 0..<9, using: &g) {
            case 0: return .displayRate
            case 1, 2: return .preferred(rate())
            case 3, 4, 5: return .cap(rate())
            case 8: return .uncapped
            default:
                let low = Bool.random(using: &g) ? rate() : nil
                let high = Bool.random(using: &g) ? rate() : nil
                return .range(minimum: low, maximum: high, preferred: Bool.random(using: &g) ? rate() : nil)
            }
        }
        func time(below limit: Nanoseconds) -> Nanoseconds { Nanoseconds.random(in: 1..<limit, using: &g) }
        let duration = Nanoseconds.random(in: 500_000_000...3_000_000_000, using: &g)
        var s = SweepScenario(panel: panel())
        s.seed = seed
        s.duration = duration
        s.vsync = Int.random(in: 0..<10, using: &g) > 0
        s.fullscreen = Int.random(in: 0..<10, using: &g) > 2
        s.vrrAllowed = Int.random(in: 0..<10, using: &g) > 0
        s.displayChanges = (0..<Int.random(in: 0...2, using: &g)).map { _ in (time(below: duration), panel()) }
            .sorted { $0.at < $1.at }
        s.requests = [(0, request())] + (0..<Int.random(in: 0...3, using: &g)).map { _ in (time(below: duration), request()) }
            .sorted { $0.at < $1.at }
        s.work = [(0, workMilliseconds.randomElement(using: &g)! * 1_000_000)]
            + (0..<Int.random(in: 0...2, using: &g)).map { _ in
                (time(below: duration), workMilliseconds.randomElement(using: &g)! * 1_000_000)
            }.sorted { $0.at < $1.at }
        s.hitches = (0..<Int.random(in: 0...2, using: &g)).map { _ in
            (time(below: duration), hitchMilliseconds.randomElement(using: &g)! * 1_000_000)
        }.sorted { $0.at < $1.at }
        s.latency = Bool.random(using: &g) ? .low : .smooth
        return s
    }
}
