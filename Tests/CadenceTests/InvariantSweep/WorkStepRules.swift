// The oracle's rules for work that moves in steps and ramps (WorkStepScenarios), from first principles and in exact
// rationals, sharing no code with Cadence. The simulator shows a frame at the first vblank at or after its present
// and models no cost beyond the work, so work w at a request of every s-th vblank of a display of refresh R is shown
// every n = max(s, ⌈w·R⌉) vblanks: the fastest even rate at or below the request that the work allows. At each
// change of the work, the loop sees the new work after its first frame, which was planned before it (and is late
// when the work grew): from the second frame on, every frame is n vblanks after the one before and on its target.
// At most one transition frame, whichever way the work moved.
// Fullscreen on a VRR panel of range min…max the same holds at the request where its interval holds the work, else
// at the fastest whole rate in hertz below it whose interval does: from the second frame on, every frame is paced at it
// and on its target, and one interval after the frame before where the driver repeated neither (the rate and the
// interval before it within the panel's range: below it, the driver's repeats place the frames).

extension Oracle {
    static func checkWorkSteps(_ s: Scenario, _ frames: [Frame]) -> [Violation] {
        guard s.workSteps, s.vsync, s.displayChanges.isEmpty, s.requests.count == 1, s.hitches.isEmpty,
              !s.lowLatency else { return [] }
        let timing = OracleModel.timing(s.panel, vsync: s.vsync, fullscreen: s.fullscreen, vrrAllowed: s.vrrAllowed)
        if case .variable(let a, _) = timing { return checkVariableWorkSteps(s, frames, timing, min: a) }
        guard case .fixed(let r) = timing else { return [] }
        let asked = OracleModel.expectedRate(.fixed(r), s.requests[0].request)
        let stride = r / asked
        precondition(stride.isInteger, "a request on a fixed display runs every n-th vblank")
        func vblanks(_ w: Int64) -> Int64 { Swift.max(stride.num, (Q(w) * r / OracleModel.nanosPerSecond).ceil) }
        var out: [Violation] = []
        var levelStart = 0
        for i in frames.indices.dropFirst() {
            let f = frames[i], p = frames[i - 1]
            if work(f) != work(p) { levelStart = i }
            let n = vblanks(work(f))
            guard i - levelStart >= 1 else { continue }
            // n refreshes apart, to the nanosecond each vblank's instant is rounded to.
            let expected = Q(n) * OracleModel.nanosPerSecond / r
            if (Q(f.glass - p.glass) - expected).magnitude > Q(1) {
                out.append(Violation(frame: f.index, rule: "work-step",
                                     detail: "\(f.glass - p.glass) ns after the frame before; work \(work(f)) ns needs \(n) vblanks (\(expected.double) ns), \(i - levelStart) frames into it"))
            }
            if f.glass != f.target {
                out.append(Violation(frame: f.index, rule: "work-step",
                                     detail: "shown \(f.glass - f.target) ns after its target, \(i - levelStart) frames into work of \(work(f)) ns"))
            }
        }
        return out
    }

    private static func checkVariableWorkSteps(_ s: Scenario, _ frames: [Frame], _ timing: Timing, min a: Q) -> [Violation] {
        typealias M = OracleModel
        let asked = M.expectedRate(timing, s.requests[0].request)
        func rate(_ w: Int64) -> Q {
            Q(w) <= M.nanosPerSecond / asked ? asked : M.cap(M.achievable(timing), Swift.min(asked, evenRate(holding: w, on: timing)))
        }
        var out: [Violation] = []
        var levelStart = 0
        for i in frames.indices.dropFirst() {
            let f = frames[i], p = frames[i - 1]
            if work(f) != work(p) { levelStart = i }
            guard i - levelStart >= 1 else { continue }
            let expected = rate(work(f))
            if abs(f.effectiveHz - expected.double) > 1e-9 * expected.double {
                out.append(Violation(frame: f.index, rule: "work-step",
                                     detail: "paced at \(f.effectiveHz) Hz; work \(work(f)) ns allows \(expected.double) Hz, \(i - levelStart) frames into it"))
            }
            if f.glass != f.target {
                out.append(Violation(frame: f.index, rule: "work-step",
                                     detail: "shown \(f.glass - f.target) ns after its target, \(i - levelStart) frames into work of \(work(f)) ns"))
            }
            // One interval of the rate after the frame before, to the nanosecond a slot is rounded to, where the
            // driver repeated neither frame.
            guard i >= 2, expected >= a,
                  Q(p.glass - frames[i - 2].glass) <= M.nanosPerSecond / a else { continue }
            let interval = M.nanosPerSecond / expected
            if (Q(f.glass - p.glass) - interval).magnitude > Q(1) {
                out.append(Violation(frame: f.index, rule: "work-step",
                                     detail: "\(f.glass - p.glass) ns after the frame before at \(expected.double) Hz (\(interval.double) ns), \(i - levelStart) frames into work of \(work(f)) ns"))
            }
        }
        return out
    }
}
