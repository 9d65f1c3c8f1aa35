@testable import Cadence

/// The sweep's class "work longer than the request's interval, constant or drifting": on fixed, variable-refresh and
/// timer-paced displays, at any cap, every callback works 1.05 to 2.6 times the interval the request runs at, steadily
/// or drifting (a few steps of −10% to +15%, or a ramp of +2% every 150 ms). The rules that judge it are the oracle's
/// (WorkCeilingRules): the rate comes down only as far as the work needs, and in steady state every frame is on its
/// target. The interval here only aims the draw; the oracle works the expected rates out for itself.
extension SweepScenario {
    static func overloaded(seed: UInt64, using g: inout SeededGenerator) -> SweepScenario {
        let panel: PanelSpec
        switch Int.random(in: 0..<10, using: &g) {
        case 0..<5: panel = .fixed(fixedRates.randomElement(using: &g)!)
        case 5..<9:
            let range = variableRanges.randomElement(using: &g)!
            panel = .variable(range.0, range.1)
        default: panel = .unknown
        }
        let rate = requestRates.filter { $0.hz >= 24 }.randomElement(using: &g)!
        let request: RequestSpec = switch Int.random(in: 0..<5, using: &g) {
        case 0: .displayRate
        case 1: .preferred(rate)
        default: .cap(rate)
        }
        var s = SweepScenario(panel: panel, requests: [(0, request)])
        s.seed = seed
        s.vsync = Int.random(in: 0..<10, using: &g) > 0
        s.fullscreen = Int.random(in: 0..<10, using: &g) > 1
        s.duration = Nanoseconds.random(in: 2_000_000_000...4_000_000_000, using: &g)
        s.latency = Bool.random(using: &g) ? .low : .smooth
        let interval = approximateInterval(s, asked: request)
        var work = milliseconds(interval * Double.random(in: 1.05...2.6, using: &g))
        s.work = [(0, work)]
        switch Int.random(in: 0..<3, using: &g) {
        case 0: break
        case 1:
            let times = (0..<Int.random(in: 1...4, using: &g)).map { _ in
                Nanoseconds.random(in: 200_000_000...(s.duration * 6 / 10), using: &g)
            }.sorted()
            for at in times {
                work = milliseconds(Double(work) * Double.random(in: 0.9...1.15, using: &g))
                s.work.append((at, work))
            }
        default:
            for step in 1...8 {
                work = milliseconds(Double(work) * 1.02)
                s.work.append((Nanoseconds(step) * 150_000_000, work))
            }
        }
        return s
    }

    /// Roughly the interval `asked` runs at on the scenario's display, in ns: a whole number of refreshes on a fixed
    /// display, the rate itself with variable refresh or none.
    private static func approximateInterval(_ s: SweepScenario, asked: RequestSpec) -> Double {
        let wanted: Double? = switch asked {
        case .cap(let r), .preferred(let r): r.hz
        default: nil
        }
        switch s.panel {
        case .fixed(let r) where s.vsync:
            return Double(max(1, (r.hz / (wanted ?? r.hz) - 0.002).rounded(.up))) * 1e9 / r.hz
        case .variable(_, let high) where s.vsync && !s.fullscreen:
            return Double(max(1, (high.hz / (wanted ?? high.hz) - 0.002).rounded(.up))) * 1e9 / high.hz
        case .fixed(let r): return 1e9 / (wanted ?? r.hz)
        case .variable(_, let high): return 1e9 / min(wanted ?? high.hz, high.hz)
        case .unknown: return 1e9 / (wanted ?? 60)
        }
    }

    /// `ns` to a tenth of a millisecond, at least one.
    private static func milliseconds(_ ns: Double) -> Nanoseconds {
        max(1_000_000, Nanoseconds((ns / 100_000).rounded()) * 100_000)
    }
}
