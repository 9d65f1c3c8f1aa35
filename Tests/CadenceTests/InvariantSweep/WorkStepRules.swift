// The oracle's rules for work that moves in steps and ramps (WorkStepScenarios), from first principles and in exact
// rationals, sharing no code with Cadence. The simulator shows a frame at the first vblank at or after its present
// and models no cost beyond the work, so work w at a request of every s-th vblank of a display of refresh R is shown
// every n = max(s, ⌈w·R⌉) vblanks: the fastest even rate at or below the request that the work allows. At each
// change of the work, the loop sees the new work after its first frame, which was planned before it (and is late
// when the work grew): from the second frame on, every frame is n vblanks after the one before and on its target.
// At most one transition frame, whichever way the work moved.

extension Oracle {
    static func checkWorkSteps(_ s: Scenario, _ frames: [Frame]) -> [Violation] {
        guard s.workSteps, case .fixed(let r) = s.panel, s.vsync, s.displayChanges.isEmpty, s.requests.count == 1,
              s.hitches.isEmpty, !s.lowLatency else { return [] }
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
}
