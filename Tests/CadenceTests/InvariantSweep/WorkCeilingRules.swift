// The oracle's rules for work longer than the requested rate's interval, from the written design and in exact
// rationals, sharing no code with Cadence:
// - the link runs below the request only after the game's work overran the request's interval on a frame, never
//   lower than the next even rate that holds the largest work seen (on a fixed display a whole number of vblanks;
//   with variable refresh or none, a whole number of hertz, or the panel's nearest rate below it; down to 0.5 Hz
//   where the work needs it, not only to 10 Hz, the slowest rate a game's menu offers), and it is back at
//   the request at the latest once the work has fitted it with 30% to spare for half a second over a full window of
//   16 frames (at once where the work shrank in a step: WorkStepRules judges that);
// - in steady state (the same rate for three frames, nothing changed for five, or twelve where callbacks start just
//   in time and the cost they start by is learned afresh), glass speed is uniform: every frame
//   the same lag from its target, and that lag is none: the rate holds the work, so no frame is late (the motion the
//   game drew for each target is what the glass shows then, at one speed).

extension Oracle {
    static let climbMargin = Q(13, 10)
    static let climbWindow = 16
    static let climbAfter: Int64 = 500_000_000
    static let slowestRate = Q(1, 2)

    static func work(_ f: Frame) -> Int64 { f.workEnd - f.workStart }

    /// The rate frame `i` was paced at: the request's, or a lower one the work justifies; anything else is reported.
    static func workCeilingRate(_ s: Scenario, _ frames: [Frame], _ i: Int, requested: Q, timing: Timing,
                                earlierTimings: [Timing], judged: Bool, requestAt: Int64, epochStart: Int64, fail: (String, String) -> Void) -> Q {
        typealias M = OracleModel
        let f = frames[i]
        let claimed = f.effectiveHz
        if abs(claimed - requested.double) <= 1e-9 * requested.double { return requested }
        if let r = s.requests.last(where: { $0.at <= f.callbackStart }), case .uncapped = r.request { return requested }
        // The claimed rate exactly: a whole number of hertz, or a rate the display shows (R/n, an end of a VRR band).
        let matches = { (q: Q) in abs(q.double - claimed) <= 1e-9 * claimed }
        var candidates = [Q(Int64(claimed.rounded()))]
        if case .fixed(let r) = timing { candidates.append(r / Q(Swift.max(1, Int64((r.double / claimed).rounded())))) }
        // The same rate as the frame before on the same display was judged there; only the climb back is new.
        if judged, let rate = candidates.first(where: matches) {
            unlearned(frames, i, rate: rate, requested: requested, since: Swift.max(requestAt, epochStart), fail: fail)
            return rate
        }
        let set = M.achievable(timing)
        candidates += set.compactMap(\.hi)
        guard let rate = candidates.first(where: matches),
              rate < requested, set.contains(where: { $0.lo <= rate && ($0.hi.map { rate <= $0 } ?? true) }) else {
            fail("rate", "effectiveHz \(claimed) is neither the request's \(requested) Hz nor a lower rate the display shows")
            return requested
        }
        // What was learned may outlive a request asked again or a display refitted, so any earlier frame counts.
        let earlier = frames[..<i]
        let overruns = earlier.filter { Q(work($0)) > M.nanosPerSecond / requested }
        guard !overruns.isEmpty, let largest = earlier.map(work).max() else {
            fail("rate", "at \(rate) Hz, below the request's \(requested) Hz, with \(overruns.count) frames whose work overran it")
            return rate
        }
        // The lowest the ceiling may go: the next even rate holding the largest work, on
        // this display or one before it (what was learned there is kept while the request stays the same).
        let needed = largest
        let lowest = earlierTimings.map { t in M.cap(M.achievable(t), min(requested, evenRate(holding: needed, on: t))) }
            .min()!
        if rate < lowest {
            fail("rate", "at \(rate) Hz, lower than \(lowest) Hz, which holds the largest work seen (\(largest) ns)")
        }
        unlearned(frames, i, rate: rate, requested: requested, since: Swift.max(requestAt, epochStart), fail: fail)
        return rate
    }

    /// Unlearned: where the work fitted the request with 30% to spare for half a second and a full window (since
    /// `since`, on one display), frame `i` runs at the request, not at `rate`.
    static func unlearned(_ frames: [Frame], _ i: Int, rate: Q, requested: Q, since: Int64, fail: (String, String) -> Void) {
        typealias M = OracleModel
        let fits = { (g: Frame) in Q(work(g)) * climbMargin <= M.nanosPerSecond / requested }
        if i >= 2, let j0 = (0..<(i - 1)).last(where: { frames[i - 1].glass - frames[$0].glass >= climbAfter }),
           j0 - climbWindow - 1 >= 0, frames[j0 - climbWindow - 1].callbackStart >= since,
           frames[(j0 - climbWindow - 1)..<i].allSatisfy(fits) {
            fail("unlearn", "still at \(rate) Hz though every frame's work since \(frames[j0 - climbWindow - 1].callbackStart) fits the request's \(requested) Hz with 30% to spare")
        }
    }

    /// The next even rate whose interval is at least `needed` ns: a whole number of refreshes on a fixed display,
    /// a whole number of hertz otherwise (one frame every whole number of seconds below 1 Hz), never below 0.5 Hz,
    /// the slowest the link runs. Where the work fits 10 Hz's interval no slower rate holds it better; past it,
    /// the rate goes only as far down as the work needs, so that such work too is shown at one speed.
    static func evenRate(holding needed: Int64, on timing: Timing) -> Q {
        let second = OracleModel.nanosPerSecond
        guard case .fixed(let r) = timing else {
            let hz = (second / Q(needed)).floor
            return Swift.max(slowestRate, hz >= 1 ? Q(hz) : Q(1) / Q((Q(needed) / second).ceil))
        }
        // The fewest refreshes lasting at least `needed`.
        let n = Swift.max(1, (Q(needed) * r / second).ceil)
        return Swift.max(r / Q(n), r / Q(Swift.max(1, (r / slowestRate).floor)))
    }

    /// Glass speed uniform in steady state: where the rate held for three frames and nothing (request, display, work,
    /// hitch) changed since five frames before (twelve with low latency), every frame is the same lag from its target:
    /// none where a rate the link may choose holds the work (on one display throughout, to keep the rule plain). (The glass
    /// intervals themselves may still settle: below a VRR panel's range each frame waits out the driver's repeat,
    /// whose spacing follows the frame before, and its target says so.)
    static func checkSteadyGlass(_ s: Scenario, _ frames: [Frame]) -> [Violation] {
        let disturbances = s.requests.dropFirst().map(\.at) + s.displayChanges.map(\.at) + s.work.dropFirst().map(\.at)
            + s.hitches
        // A just-in-time start learns a new cost as the 95th percentile of 120 frames: after six frames of it.
        let settle = s.lowLatency ? 12 : 5
        var out: [Violation] = []
        for i in frames.indices where i >= settle {
            let f = frames[i], p = frames[i - 1]
            guard f.effectiveHz > 0, f.effectiveHz == p.effectiveHz, p.effectiveHz == frames[i - 2].effectiveHz,
                  !disturbances.contains(where: { frames[i - settle].callbackStart < $0 && $0 <= f.glass }) else { continue }
            // The same lag, to the nanosecond a grid's rounding moves a slot; none where a rate the link may run
            // at holds the work (any down to 0.5 Hz: the work brings the link as low as it needs).
            let lag = f.glass - f.target, previousLag = p.glass - p.target
            let holdable = s.displayChanges.isEmpty && OracleModel.nanosPerSecond / slowestRate >= Q(work(f))
            if abs(lag - previousLag) > 1 || (holdable && (lag != 0 || previousLag != 0)) {
                out.append(Violation(frame: f.index, rule: "steady",
                                     detail: "lags \(previousLag) then \(lag) ns from the targets in steady state at \(f.effectiveHz) Hz (work \(work(f)) ns)"))
            }
        }
        return out
    }
}
