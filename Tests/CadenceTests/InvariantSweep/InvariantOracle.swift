// Independent oracle for the frame-pacing invariants of a display link.
//
// Everything here is derived from the written rules (display model, rate selection, per-frame invariants), with exact
// rational arithmetic, and deliberately shares no code with the engine it checks. Time is integer nanoseconds; rates are
// exact rationals in Hz; an instant that should be `origin + k·(1e9/R)` must equal `origin + round(k·1e9/R)` (round half
// up), so any accumulated drift is caught.

// MARK: - Exact rationals

/// An exact rational number: numerator and denominator are `Int64`, always reduced, denominator > 0.
/// Arithmetic traps with a clear message instead of silently wrapping when a result does not fit.
/// The independent oracle of the invariant sweep: the rules, from first
/// principles, in exact rationals, sharing no code with Cadence.
enum Oracle {
    struct Q: Comparable, Hashable, Sendable, CustomStringConvertible {
        let num: Int64
        let den: Int64

        init(_ numerator: Int64, _ denominator: Int64 = 1) {
            precondition(denominator != 0, "Q: zero denominator (\(numerator)/0)")
            precondition(numerator != .min && denominator != .min, "Q: Int64.min is not representable as a reduced rational")
            let g = Q.gcd(numerator, denominator)
            var n = numerator / g
            var d = denominator / g
            if d < 0 { n = -n; d = -d }
            num = n
            den = d
        }

        init(_ value: Int) { self.init(Int64(value)) }

        static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
            var x = a.magnitude
            var y = b.magnitude
            while y != 0 { (x, y) = (y, x % y) }
            return x == 0 ? 1 : Int64(x)
        }

        private static func checked(_ r: (partialValue: Int64, overflow: Bool), _ what: String) -> Int64 {
            if r.overflow { fatalError("Q overflow in \(what): the values are too large for exact Int64 rationals") }
            return r.partialValue
        }

        static func + (a: Q, b: Q) -> Q {
            let g = gcd(a.den, b.den)
            let d = checked((a.den / g).multipliedReportingOverflow(by: b.den), "\(a) + \(b) (denominator)")
            let l = checked(a.num.multipliedReportingOverflow(by: b.den / g), "\(a) + \(b)")
            let r = checked(b.num.multipliedReportingOverflow(by: a.den / g), "\(a) + \(b)")
            return Q(checked(l.addingReportingOverflow(r), "\(a) + \(b)"), d)
        }

        static prefix func - (a: Q) -> Q { Q(-a.num, a.den) }
        static func - (a: Q, b: Q) -> Q { a + (-b) }

        static func * (a: Q, b: Q) -> Q {
            let g1 = gcd(a.num, b.den)
            let g2 = gcd(b.num, a.den)
            let n = checked((a.num / g1).multipliedReportingOverflow(by: b.num / g2), "\(a) * \(b)")
            let d = checked((a.den / g2).multipliedReportingOverflow(by: b.den / g1), "\(a) * \(b) (denominator)")
            return Q(n, d)
        }

        static func / (a: Q, b: Q) -> Q {
            precondition(b.num != 0, "Q: division of \(a) by zero")
            return a * Q(b.den, b.num)
        }

        /// Exact comparison through 128-bit cross products (never overflows).
        static func < (a: Q, b: Q) -> Bool {
            let l = a.num.multipliedFullWidth(by: b.den)
            let r = b.num.multipliedFullWidth(by: a.den)
            return l.high != r.high ? l.high < r.high : l.low < r.low
        }

        var magnitude: Q { num < 0 ? -self : self }

        /// Largest integer ≤ self.
        var floor: Int64 {
            let q = num / den
            return (num % den != 0 && num < 0) ? q - 1 : q
        }

        /// Smallest integer ≥ self.
        var ceil: Int64 { -(-self).floor }

        /// Nearest integer, halves rounded up (towards +∞): the engine's rounding of instants to nanoseconds.
        var rounded: Int64 {
            var rest = num % den              // sign of num; made 0 ≤ rest < den below, without any product
            if rest < 0 { rest += den }
            return rest >= den - rest ? floor + 1 : floor
        }

        var isInteger: Bool { den == 1 }
        var double: Double { Double(num) / Double(den) }
        var description: String { den == 1 ? "\(num)" : "\(num)/\(den)" }
    }

    // MARK: - Inputs and outputs

    enum Panel: Sendable, Equatable { case fixed(Q), variable(min: Q, max: Q), unknown }

    enum Request: Sendable { case displayRate; case preferred(Q); case cap(Q); case range(min: Q?, max: Q?, preferred: Q?); case uncapped }

    struct Scenario: Sendable {
        var panel: Panel
        var vsync: Bool
        var fullscreen: Bool
        var vrrAllowed: Bool
        var displayChanges: [(at: Int64, panel: Panel)]   // sorted by `at`
        var requests: [(at: Int64, request: Request)]     // the first at 0
        var duration: Int64
        /// From each `at` on, every callback works `duration`; a hitch adds once to the first callback at or after its `at`.
        var work: [(at: Int64, duration: Int64)] = []
        var hitches: [Int64] = []
        /// Callbacks start just in time for their targets (``FrameLatency/low``), from the frames' learned cost.
        var lowLatency = false
        /// The work moves in steps and ramps that the step rules judge (WorkStepRules).
        var workSteps = false
    }

    /// One display-link callback, in order.
    struct Frame: Sendable {
        var index: Int
        var callbackStart: Int64
        var workEnd: Int64
        var presentSubmit: Int64
        var target: Int64
        var delta: Int64
        var glass: Int64          // when the frame reached the glass
        var timestamp: Int64      // previous frame's glass time (frame 0: engine-defined, not checked)
        var effectiveHz: Double
        var skippedFrames: Int
        /// When the game's work began (after any wait before the callback): its work is `workEnd − workStart`.
        var workStart: Int64
    }

    struct Violation: Sendable, CustomStringConvertible {
        var frame: Int
        var rule: String
        var detail: String
        var description: String { "frame \(frame) [\(rule)]: \(detail)" }
    }

    // MARK: - Display model

    /// How presents reach the glass at some instant.
    enum Timing: Sendable, Equatable {
        /// A present shows at once (vsync off or panel unknown). `native`: fixed rate, VRR max, or 60 Hz if unknown.
        case unsynced(native: Q)
        /// Adaptive sync in effect: shows when presented, not sooner than 1/max after the previous flip.
        case variable(min: Q, max: Q)
        /// Frames show only on vblanks of a grid at this rate.
        case fixed(Q)
    }

    /// The display between two consecutive display changes: its panel, timing, and vblank grid.
    struct DisplayEpoch: Sendable {
        var start: Int64            // Int64.min for the initial display
        var panel: Panel
        var timing: Timing
        var gridOrigin: Int64       // vblank 0 of the grid, ns
        var gridRate: Q             // Hz
    }

    enum OracleModel {
        static let nanosPerSecond = Q(1_000_000_000)
        static let lowestRate = Q(1, 2)
        static let clampedDelta: Int64 = 1_500_000_000

        static func timing(_ panel: Panel, vsync: Bool, fullscreen: Bool, vrrAllowed: Bool) -> Timing {
            switch panel {
            case .unknown: return .unsynced(native: Q(60))
            case .fixed(let r): return vsync ? .fixed(r) : .unsynced(native: r)
            case .variable(let a, let b):
                if !vsync { return .unsynced(native: b) }
                return (fullscreen && vrrAllowed) ? .variable(min: a, max: b) : .fixed(b)
            }
        }

        /// Instant of vblank `k` of a grid: origin + round(k·1e9/R).
        static func vblank(origin: Int64, rate: Q, index k: Int64) -> Int64 {
            origin + (Q(k) * nanosPerSecond / rate).rounded
        }

        /// The first vblank of a grid at or after `t`.
        static func firstVblank(origin: Int64, rate: Q, atOrAfter t: Int64) -> Int64 {
            var k = (Q(t - origin) * rate / nanosPerSecond).ceil - 1
            while vblank(origin: origin, rate: rate, index: k) < t { k += 1 }
            return vblank(origin: origin, rate: rate, index: k)
        }

        /// The sequence of displays over the scenario. The grid starts at t = 0; each change moves vblank 0 to the old
        /// grid's first vblank at or after the change. Unknown panels keep the old grid's rate.
        static func epochs(_ s: Scenario) -> [DisplayEpoch] {
            func gridRate(_ p: Panel, previous: Q) -> Q {
                switch p {
                case .fixed(let r): return r
                case .variable(_, let b): return b
                case .unknown: return previous
                }
            }
            func make(_ p: Panel, start: Int64, origin: Int64, previousRate: Q) -> DisplayEpoch {
                DisplayEpoch(start: start, panel: p,
                             timing: timing(p, vsync: s.vsync, fullscreen: s.fullscreen, vrrAllowed: s.vrrAllowed),
                             gridOrigin: origin, gridRate: gridRate(p, previous: previousRate))
            }
            var list = [make(s.panel, start: .min, origin: 0, previousRate: Q(60))]
            for change in s.displayChanges {
                let old = list[list.count - 1]
                let origin = firstVblank(origin: old.gridOrigin, rate: old.gridRate, atOrAfter: change.at)
                list.append(make(change.panel, start: change.at, origin: origin, previousRate: old.gridRate))
            }
            return list
        }

        /// Index of the display in effect at `t` (a change applies at and after its instant).
        static func epochIndex(_ epochs: [DisplayEpoch], at t: Int64) -> Int {
            var i = 0
            while i + 1 < epochs.count && epochs[i + 1].start <= t { i += 1 }
            return i
        }

        static func nativeRate(_ t: Timing) -> Q {
            switch t {
            case .unsynced(let n): return n
            case .variable(_, let b): return b
            case .fixed(let r): return r
            }
        }

        /// The achievable rates (all ≥ 0.5 Hz) as closed intervals; `hi == nil` means unbounded.
        static func achievable(_ t: Timing) -> [(lo: Q, hi: Q?)] {
            var out: [(lo: Q, hi: Q?)] = []
            switch t {
            case .unsynced:
                out.append((lowestRate, nil))
            case .fixed(let r):
                var n: Int64 = 1
                while r / Q(n) >= lowestRate { out.append((r / Q(n), r / Q(n))); n += 1 }
            case .variable(let a, let b):
                var k: Int64 = 1
                while b / Q(k) >= lowestRate {
                    let lo = max(a / Q(k), lowestRate)
                    out.append((lo, b / Q(k)))
                    if lo == lowestRate { break }
                    k += 1
                }
            }
            if out.isEmpty { let n = nativeRate(t); out.append((n, n)) }   // degenerate panel below 0.5 Hz
            return out
        }

        /// The achievable rate nearest `p`, restricted to [lo, hi] when given; ties go to the higher rate.
        static func nearest(_ set: [(lo: Q, hi: Q?)], to p: Q, within lo: Q? = nil, _ hi: Q? = nil) -> Q? {
            var best: (rate: Q, distance: Q)?
            for interval in set {
                let x = lo.map { max($0, interval.lo) } ?? interval.lo
                let y: Q? = {
                    switch (interval.hi, hi) {
                    case let (a?, b?): return min(a, b)
                    case let (a?, nil): return a
                    case let (nil, b?): return b
                    case (nil, nil): return nil
                    }
                }()
                if let y, x > y { continue }
                var c = max(p, x)
                if let y { c = min(c, y) }
                let d = (c - p).magnitude
                if let b = best, d > b.distance || (d == b.distance && c <= b.rate) { continue }
                best = (c, d)
            }
            return best?.rate
        }

        /// The highest achievable rate ≤ n (the lowest achievable one if none is).
        static func cap(_ set: [(lo: Q, hi: Q?)], _ n: Q) -> Q {
            var best: Q?
            for interval in set where interval.lo <= n {
                let c = interval.hi.map { min($0, n) } ?? n
                if best == nil || c > best! { best = c }
            }
            return best ?? set.map(\.lo).min()!
        }

        /// The rate the link must run at for a request on a timing.
        static func expectedRate(_ t: Timing, _ request: Request) -> Q {
            let set = achievable(t)
            switch request {
            case .displayRate, .uncapped:
                return nativeRate(t)
            case .preferred(let p):
                return nearest(set, to: p)!
            case .cap(let n):
                return cap(set, n)
            case .range(let lo, let hi, let preferred):
                let p = preferred ?? nativeRate(t)
                return nearest(set, to: p, within: lo, hi) ?? nearest(set, to: p)!
            }
        }

        /// Variable display: how many flips show each frame at rate `r` (smallest k ≥ 1 with k·r ≥ min).
        static func repeatCount(min a: Q, rate r: Q) -> Int64 { Swift.max(1, (a / r).ceil) }

        // The display's driver below a VRR panel's range (low framerate compensation), from its rules:
        // - every scan-out, of a new frame or a repeat, lasts 1/max; the panel's clock counts whole nanoseconds,
        //   so it ends at the last nanosecond at or before flip + 1/max;
        // - the panel holds a frame at most 1/min, rounded up to the nanosecond;
        // - after a new frame flips, the driver predicts it stays as long as the previous frame did (D). If D is
        //   longer than the panel holds, it cuts D into the fewest equal pieces the panel holds (k), each rounded
        //   down to the nanosecond but never shorter than a scan-out, and repeats the frame after each piece
        //   but the last (k − 1 repeats);
        // - past those, or with no prediction, the panel refreshes by itself every longest hold;
        // - a frame presented while a scan-out is under way is shown when it ends; one presented at the very
        //   instant a repeat would start is shown instead of it.

        static func scanOut(max b: Q) -> Int64 { (nanosPerSecond / b).floor }
        static func longestHold(min a: Q) -> Int64 { (nanosPerSecond / a).ceil }

        /// The flips after a new frame at `flip` (the frame before it on the glass for `previousDuration`), the
        /// new frame's first, up to and excluding `end`.
        static func driverFlips(min a: Q, max b: Q, flip: Int64, previousDuration: Int64?, before end: Int64) -> [Int64] {
            let longest = longestHold(min: a)
            var planned: Int64 = 0, spacing = longest
            if let d = previousDuration, d > longest {
                let k = (Q(d) / Q(longest)).ceil
                planned = k - 1
                spacing = Swift.max((Q(d) / Q(k)).floor, scanOut(max: b))
            }
            var out = [flip]
            var t = flip
            var j: Int64 = 0
            while true {
                j += 1
                t += j <= planned ? spacing : longest
                if t >= end { return out }
                out.append(t)
            }
        }

        /// When a frame presented at `t` reaches the glass, the flips before it being `flips`.
        static func glass(presentedAt t: Int64, flips: [Int64], max b: Q) -> Int64 {
            Swift.max(t, flips.last { $0 < t }.map { $0 + scanOut(max: b) } ?? flips[0] + scanOut(max: b))
        }
    }

    // MARK: - Invariants

    /// Checks every frame against the rules (early, late, delta, skipped-slot, grid, rate, monotonic, timestamp).
    static func checkInvariants(_ s: Scenario, _ frames: [Frame]) -> [Violation] {
        typealias M = OracleModel
        let epochs = M.epochs(s)
        let changeTimes = s.displayChanges.map(\.at)
        var rates: [Int: Q] = [:]          // keyed by epoch · (requests + 1) + request
        var out: [Violation] = []
        // Fixed grid: the previous non-straddling frame's vblank index, display and rate.
        var previousVblank: (k: Int64, epoch: Int, rate: Q)?
        // Variable/unsynced: the current drift-free run: its first target, display, rate, and the range of residuals
        // target − (first + m·interval) seen so far.
        var run: (first: Int64, epoch: Int, rate: Q, low: Q, high: Q)?

        for (i, f) in frames.enumerated() {
            func fail(_ rule: String, _ detail: String) { out.append(Violation(frame: f.index, rule: rule, detail: detail)) }
            let previous: Frame? = i > 0 ? frames[i - 1] : nil

            // Display and request in effect at the callback.
            let e = M.epochIndex(epochs, at: f.callbackStart)
            let straddling = e != M.epochIndex(epochs, at: f.glass) || e != M.epochIndex(epochs, at: f.presentSubmit)
                || changeTimes.contains { f.callbackStart <= $0 && $0 <= f.glass }
            let display = epochs[e]
            // The driver's flips since the previous new frame (repeats included), while variable refresh is in
            // effect: it knows the previous frame's duration unless the panel changed since that frame's present.
            // Uncapped turns vsync off: no driver paces those frames, and when vsync comes back the driver
            // starts afresh from the last flip, knowing no duration.
            func isUncapped(at t: Int64) -> Bool {
                guard let k = s.requests.lastIndex(where: { $0.at <= t }) else { return false }
                if case .uncapped = s.requests[k].request { return true } else { return false }
            }
            let vsyncBack = previous.map { isUncapped(at: $0.callbackStart) } ?? false
            var driver: [Int64]?
            if case .variable(let a, let b) = display.timing, let p = previous, !straddling,
               !isUncapped(at: f.callbackStart) {
                let panelChanged = s.displayChanges.contains { change in
                    p.presentSubmit < change.at && change.at <= f.presentSubmit
                        && M.epochs(s)[Swift.max(0, M.epochIndex(epochs, at: change.at) - 1)].panel != change.panel
                }
                let duration: Int64? = i >= 2 && !panelChanged && !vsyncBack ? p.glass - frames[i - 2].glass : nil
                driver = M.driverFlips(min: a, max: b, flip: p.glass, previousDuration: duration, before: f.glass + 1)
                // The panel itself: the frame is shown at once, or when the scan-out under way ends.
                let expected = M.glass(presentedAt: f.presentSubmit, flips: driver!, max: b)
                if f.glass != expected {
                    fail("vrr-driver", "presented at \(f.presentSubmit), shown at \(f.glass); the driver's flips \(driver!.suffix(3)) show it at \(expected)")
                }
            }
            /// Whether `t` falls in a repeat's scan-out, and the end of the one it does.
            func repeatScanOut(containing t: Int64) -> Int64? {
                guard let driver, case .variable(_, let b) = display.timing else { return nil }
                guard let g = driver.dropFirst().last(where: { $0 < t }), t < g + M.scanOut(max: b) else { return nil }
                return g + M.scanOut(max: b)
            }
            // The frame is for the end of a repeat's scan-out: the cadence's slot fell inside it, so the cadence
            // starts again from there.
            let afterRepeat = repeatScanOut(containing: f.target - 1) == f.target
            let r = s.requests.lastIndex { $0.at <= f.callbackStart } ?? (s.requests.isEmpty ? -1 : 0)
            let key = e * (s.requests.count + 1) + (r + 1)
            let requested: Q
            if let known = rates[key] {
                requested = known
            } else {
                requested = M.expectedRate(display.timing, r >= 0 ? s.requests[r].request : .displayRate)
                rates[key] = requested
            }
            // Below the request only where the game's work outgrew it (see WorkCeilingRules).
            let rate = workCeilingRate(s, frames, i, requested: requested, timing: display.timing,
                                       earlierTimings: epochs[...e].map(\.timing),
                                       judged: i > 0 && frames[i - 1].effectiveHz == f.effectiveHz
                                           && M.epochIndex(epochs, at: frames[i - 1].callbackStart) == e,
                                       requestAt: r >= 0 ? s.requests[r].at : 0, epochStart: display.start,
                                       fail: { rule, detail in if !straddling { fail(rule, detail) } })
            let interval = M.nanosPerSecond / rate          // exact cadence interval, ns
            let target = Q(f.target)
            let isLate = f.glass > f.target

            // 6. monotonic
            if !(f.callbackStart <= f.workEnd && f.workEnd <= f.presentSubmit && f.presentSubmit <= f.glass) {
                fail("monotonic", "callbackStart \(f.callbackStart) ≤ workEnd \(f.workEnd) ≤ presentSubmit \(f.presentSubmit) ≤ glass \(f.glass) does not hold")
            }
            if let p = previous, f.target <= p.target {
                fail("monotonic", "target \(f.target) does not increase on the previous \(p.target)")
            }

            // Timestamp: the previous frame's glass time.
            if let p = previous, f.timestamp != p.glass {
                fail("timestamp", "timestamp \(f.timestamp) ≠ previous glass \(p.glass)")
            }

            // 1. early (always), late (unless unavoidable)
            if f.glass < f.target {
                fail("early", "glass \(f.glass) before target \(f.target)")
            }

            // Uncapped: vsync off and nothing paces. The target is the callback's start, the frame goes out the
            // moment its work ends (not before its target) and is on the glass then, the delta is the difference
            // of targets (one display interval for the first), and no rate is claimed. There is no slot, so no
            // lateness, grid or skip.
            if r >= 0, case .uncapped = s.requests[r].request {
                // Targets still increase: a callback starting on its predecessor's target is for a nanosecond later.
                let expectedTarget = Swift.max(f.callbackStart, previous.map { $0.target + 1 } ?? f.callbackStart)
                if f.target != expectedTarget { fail("uncapped", "target \(f.target) ≠ \(expectedTarget) (callback start \(f.callbackStart))") }
                let shown = Swift.max(f.workEnd, expectedTarget)
                if f.presentSubmit != shown || f.glass != shown {
                    fail("uncapped", "work ended at \(f.workEnd) but presented at \(f.presentSubmit), shown at \(f.glass)")
                }
                let expected = previous.map { f.target - $0.target } ?? (M.nanosPerSecond / M.nativeRate(M.timing(s.panel, vsync: false, fullscreen: s.fullscreen, vrrAllowed: s.vrrAllowed))).rounded
                if f.delta != M.clampedDelta, f.delta != expected { fail("uncapped", "delta \(f.delta) ≠ \(expected)") }
                if f.effectiveHz != 0 { fail("uncapped", "effectiveHz \(f.effectiveHz) claims a rate") }
                if f.skippedFrames != 0 { fail("uncapped", "\(f.skippedFrames) slots skipped with no slots") }
                previousVblank = nil
                run = nil
                continue
            }
            if isLate && !straddling && i > 0 {
                if f.workEnd <= f.target {
                    fail("late", "glass \(f.glass) after target \(f.target) though work ended at \(f.workEnd)")
                } else if f.glass == repeatScanOut(containing: f.glass - 1) ?? -1 {
                    // Held for a slot where the driver was repeating the previous frame: shown as that ends.
                } else {
                    let lateness = Q(f.glass - f.target)
                    let steps = (lateness / interval).rounded
                    if steps < 1 || (lateness - Q(steps) * interval).magnitude > Q(steps) {
                        fail("late", "late by \(f.glass - f.target) ns, not a multiple of the cadence interval \(interval) ns")
                    }
                }
            }

            // 5. VRR: a target is a moment the panel can reach, never inside a repeat's scan-out.
            if let end = repeatScanOut(containing: f.target) {
                fail("reachable", "target \(f.target) falls in the scan-out of a repeat, which ends at \(end)")
            }

            // 2. delta
            if f.delta != M.clampedDelta {
                let expected = previous.map { f.target - $0.target } ?? interval.rounded
                if f.delta != expected { fail("delta", "delta \(f.delta) ≠ \(expected)") }
            }

            if straddling {
                previousVblank = nil
                run = nil
                continue
            }

            // 5. rate
            let want = rate.double
            if !(abs(f.effectiveHz - want) <= 1e-9 * want) {
                fail("rate", "effectiveHz \(f.effectiveHz) ≠ expected \(rate) (\(want)) Hz")
            }

            // 3. skipped-slot
            if f.target <= f.callbackStart {
                fail("skipped-slot", "target \(f.target) not after callbackStart \(f.callbackStart)")
            }
            var earliest = Q(f.callbackStart)
            if let p = previous {
                var afterFlip = Q(p.glass)
                if case .variable(_, let b) = display.timing { afterFlip = afterFlip + M.nanosPerSecond / b }
                earliest = max(earliest, afterFlip)
            }
            // On a variable panel a slot inside a repeat's scan-out cannot show a frame; a target at the end of
            // one is where the cadence starts again, not a slot of the old cadence.
            let earlierUsable = repeatScanOut(containing: (target - interval).rounded) == nil && !afterRepeat
            if earlierUsable && !(target - interval < earliest + Q(1)) {
                fail("skipped-slot", "target \(f.target): the slot one interval (\(interval) ns) earlier was usable (earliest \(earliest))")
            }

            // 4. grid
            switch display.timing {
            case .fixed(let panelRate):
                run = nil
                let k = (Q(f.target - display.gridOrigin) * display.gridRate / M.nanosPerSecond).rounded
                guard M.vblank(origin: display.gridOrigin, rate: display.gridRate, index: k) == f.target else {
                    fail("grid", "target \(f.target) is not a vblank of the \(display.gridRate) Hz grid from \(display.gridOrigin) (nearest: vblank \(k) at \(M.vblank(origin: display.gridOrigin, rate: display.gridRate, index: k)))")
                    previousVblank = nil
                    continue
                }
                if let p = previousVblank, p.epoch == e, p.rate == rate {
                    let n = panelRate / rate
                    if !n.isInteger || (k - p.k) % n.num != 0 {
                        fail("grid", "targets \(k - p.k) vblanks apart, not a multiple of \(n)")
                    }
                }
                previousVblank = (k, e, rate)
            case .variable, .unsynced:
                previousVblank = nil
                // A run ends at a change of display or rate, and after a late frame (the cadence may re-anchor). Within a
                // run, the targets must be round(origin + m·interval) for ONE origin: the residuals target − m·interval
                // (relative to the run's first target) must all fit in a window narrower than 1 ns. This holds whether
                // the engine anchors its cadence on the first target or on an earlier instant, and fails on any drift.
                if let current = run, let p = previous, current.epoch == e, current.rate == rate, p.glass <= p.target,
                   !afterRepeat {
                    let offset = Q(f.target - current.first)
                    let m = (offset / interval).rounded
                    let residual = offset - Q(m) * interval
                    let low = min(current.low, residual), high = max(current.high, residual)
                    if high - low >= Q(1) {
                        fail("grid", "target \(f.target) drifted from the cadence: \(m) intervals of \(interval) ns after \(current.first) "
                             + "should be \(current.first) + \(Q(m) * interval) (± <1 ns for one common origin)")
                        run = (f.target, e, rate, Q(0), Q(0))
                    } else {
                        run = (current.first, e, rate, low, high)
                    }
                } else {
                    run = (f.target, e, rate, Q(0), Q(0))
                }
            }
        }
        return out
    }

    /// A variable-refresh panel in effect throughout: its flips (new frames and the driver's repeats) are the
    /// ones the driver's rules give for the frames' glass times, and every gap between two flips lies within the
    /// panel's range: at least 1/max (less 1 ns for rounding), at most 1/min (rounded up).
    static func checkVRRFlips(min: Q, max: Q, glass: [Int64], flips: [Int64]) -> [Violation] {
        typealias M = OracleModel
        let shortest = M.nanosPerSecond / max - Q(1)
        var out: [Violation] = []
        for i in flips.indices.dropFirst() where Q(flips[i] - flips[i - 1]) < shortest {
            out.append(Violation(frame: i, rule: "vrr-flip",
                                 detail: "flip at \(flips[i]) only \(flips[i] - flips[i - 1]) ns after the previous (minimum \(shortest) ns)"))
        }
        for i in flips.indices.dropFirst() where flips[i] - flips[i - 1] > M.longestHold(min: min) {
            out.append(Violation(frame: i, rule: "vrr-flip",
                                 detail: "flip at \(flips[i]) \(flips[i] - flips[i - 1]) ns after the previous: the panel holds at most \(M.longestHold(min: min)) ns"))
        }
        var expected = glass.prefix(1).map { $0 }
        for i in glass.indices.dropFirst() {
            let duration: Int64? = i >= 2 ? glass[i - 1] - glass[i - 2] : nil
            expected += M.driverFlips(min: min, max: max, flip: glass[i - 1], previousDuration: duration, before: glass[i])
                .dropFirst() + [glass[i]]
        }
        if expected != flips {
            let first = Array(zip(expected, flips)).firstIndex { $0 != $1 } ?? Swift.min(expected.count, flips.count)
            out.append(Violation(frame: first, rule: "vrr-driver",
                                 detail: "the panel flipped at \(flips.dropFirst(first).prefix(3)); the driver's rules give \(expected.dropFirst(first).prefix(3))"))
        }
        return out
    }
}
