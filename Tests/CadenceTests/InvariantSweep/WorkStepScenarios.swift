@testable import Cadence

/// The sweep's class "work that grows and shrinks in steps and ramps": on a fixed display, or fullscreen on a VRR
/// panel (one in three), at its own rate or a cap, the work starts at 0.2 to 3.2 refreshes (of the panel's maximum) (no more than the slowest even rate of 10 Hz or more holds) and changes two to four times, each change a step to a new level or a ramp
/// to it (three to six steps 100 ms apart), each held 0.6 to 0.9 s before the next. The hold is longer than the
/// loop's half-second window: a shrink right after a rise (a peak) is not in this class, since one light frame after
/// work that just rose is not told from noise at once (the window holds that case). The oracle's step rules
/// (WorkStepRules) work the expected intervals out from the display's period and the work alone.
extension SweepScenario {
    static func stepped(seed: UInt64, using g: inout SeededGenerator) -> SweepScenario {
        let variable = Int.random(in: 0..<3, using: &g) == 0
        let range = variableRanges.randomElement(using: &g)!
        let rate = variable ? range.1 : fixedRates.randomElement(using: &g)!
        let caps = requestRates.filter { $0.hz >= 20 && $0.hz <= rate.hz }
        let request: RequestSpec = Bool.random(using: &g) || caps.isEmpty ? .displayRate : .cap(caps.randomElement(using: &g)!)
        var s = SweepScenario(panel: variable ? .variable(range.0, range.1) : .fixed(rate), requests: [(0, request)])
        s.seed = seed
        s.fullscreen = variable || Bool.random(using: &g)
        s.workSteps = true
        // No more than the slowest even rate of 10 Hz or more holds (on 24000/1001 Hz every second vblank, 83.4 ms).
        let period = 1e9 / rate.hz
        let slowest = Nanoseconds(Double(Int(rate.hz / 10)) * period / 100_000) * 100_000
        func level() -> Nanoseconds {
            max(1_000_000, min(slowest, Nanoseconds((period * Double.random(in: 0.2...3.2, using: &g) / 100_000).rounded()) * 100_000))
        }
        func hold() -> Nanoseconds { Nanoseconds.random(in: 600_000_000...900_000_000, using: &g) }
        var work = level()
        var t = hold()
        s.work = [(0, work)]
        for _ in 0..<Int.random(in: 2...4, using: &g) {
            let next = level()
            if Bool.random(using: &g) {
                s.work.append((t, next))
            } else {
                let steps = Int.random(in: 3...6, using: &g)
                for k in 1...steps {
                    let w = work + (next - work) * Nanoseconds(k) / Nanoseconds(steps)
                    s.work.append((t, w / 100_000 * 100_000))
                    t += k < steps ? 100_000_000 : 0
                }
            }
            work = next
            t += hold()
        }
        s.duration = t
        return s
    }
}
