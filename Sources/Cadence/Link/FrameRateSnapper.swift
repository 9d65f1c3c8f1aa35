/// The rate the link will actually run at, and how it lands on the display.
public struct EffectiveRate: Equatable, Sendable {
    /// The link's frame rate.
    public let rate: FrameRate
    /// On a fixed display, the link fires every `vsyncStride`-th vblank (rate = R/n); 1 otherwise.
    public let vsyncStride: Int64
    /// Low framerate compensation: below a VRR panel's minimum its driver shows
    /// each frame this many times, so the panel stays inside its range. 1 = no repeats.
    public let presentsPerFrame: Int64
}

/// Turns what a game prefers into what the display can show, exactly.
///
/// The rates a display can show evenly ("achievable"):
/// - fixed refresh R: R/n for every whole n (every n-th vblank); where R was
///   measured, the choice is made on the rate the system reports and run on
///   the measured grid (``VsyncGrid/nominalRate``), never above the range's
///   maximum there (within ``capTolerance``);
/// - variable refresh [min, max] in effect: any rate r with k·r inside the
///   range for some whole k (k > 1: each frame shown k times, low framerate
///   compensation), so below the minimum there are gaps: on 50–60 Hz, 45 is
///   not achievable (45 < 50, 90 > 60) but 30 and 50 are;
/// - no vsync: any rate.
/// None slower than ``slowest``.
///
/// The rule is `CAFrameRateRange`'s: among the achievable rates inside
/// `minimum...maximum`, the one nearest `preferred` (0: the display's own
/// rate), ties to the higher rate; when none lies inside, the achievable rate
/// nearest `preferred` overall. `preferredFramesPerSecond` alone is the range
/// with only `preferred` set, Apple's nearest-rate rule (60 Hz: 40 → 30,
/// 45 → 60, 50 → 60). A cap of N is the range `maximum: N, preferred: N`: the
/// highest achievable rate at or below N (60 Hz: 50 → 30).
package enum FrameRateSnapper {
    /// The slowest rate Cadence runs: one frame every two seconds, low enough
    /// that a cap of 1 on a 59.94 Hz display is every 60th vblank (0.999 Hz).
    public static let slowest = FrameRate(numerator: 1, denominator: 2)

    /// How far above a maximum a measured grid's division may be and still
    /// count as at or below it: a clock measured from a few hundred vblanks
    /// is off by a few parts in ten thousand, so a 60 Hz panel measured at
    /// 60.02 Hz still runs a cap of 30 at every second vblank.
    public static let capTolerance = 0.002

    /// The rate to run at for `range` on a display with `timing`.
    public static func effectiveRate(for range: FrameRateRange, on timing: DisplayTiming) -> EffectiveRate {
        let native = timing.nativeRate
        let preferred = range.preferred > 0 ? FrameRate(hz: range.preferred) : native
        let lower = range.minimum > 0 ? max(slowest, FrameRate(hz: range.minimum)) : slowest
        let upper = range.maximum > 0 ? FrameRate(hz: range.maximum) : nil
        // A measured grid's divisions count as at or below the maximum within capTolerance.
        let measured: Bool = if case .fixed(let grid) = timing { grid.isMeasured } else { false }
        let bound = measured ? upper.map { FrameRate(hz: $0.hz * (1 + capTolerance)) } : upper
        let rate = nearestAchievable(to: preferred, from: lower, to: bound, on: timing)
            ?? nearestAchievable(to: preferred, from: slowest, to: nil, on: timing)!
        switch timing {
        case .fixed(let grid):
            // Chosen on the nominal rate: every n-th vblank of the measured grid,
            // and, where the choice honours the range's maximum, never above it
            // on the measured grid (a cap of 30 on a compositor SDL calls 60 Hz
            // that repaints at 62.5 is every third repaint).
            var n = grid.nominalRate.ratioRoundedUp(over: rate)
            if let upper, let bound, rate <= bound {
                while grid.rate.divided(by: n).hz > upper.hz * (1 + capTolerance) { n += 1 }
            }
            return EffectiveRate(rate: grid.rate.divided(by: n), vsyncStride: n, presentsPerFrame: 1)
        case .variable(let minimum, _):
            return EffectiveRate(rate: rate, vsyncStride: 1, presentsPerFrame: max(1, minimum.ratioRoundedUp(over: rate)))
        case .unsynced:
            return EffectiveRate(rate: rate, vsyncStride: 1, presentsPerFrame: 1)
        }
    }

    /// The achievable rate inside `lower...upper` (nil: unbounded) nearest
    /// `wanted`, ties to the higher; nil when no achievable rate lies inside.
    static func nearestAchievable(to wanted: FrameRate, from lower: FrameRate, to upper: FrameRate?,
                                  on timing: DisplayTiming) -> FrameRate? {
        switch timing {
        case .fixed(let grid):
            return nearestDivision(of: grid.nominalRate, to: wanted, from: lower, to: upper)
        case .variable(let minimum, let maximum):
            return nearestCompensated(in: minimum...max(minimum, maximum), to: wanted, from: lower, to: upper)
        case .unsynced:
            guard upper.map({ lower <= $0 }) ?? true else { return nil }
            return clamp(wanted, lower, upper)
        }
    }

    /// The nearest R/n. Within bounds, n runs from the first divisor at or
    /// below `upper` to the last at or above `lower`; the nearest to `wanted`
    /// is one of the two divisions either side of it, clamped to that run.
    private static func nearestDivision(of refresh: FrameRate, to wanted: FrameRate,
                                        from lower: FrameRate, to upper: FrameRate?) -> FrameRate? {
        let first = upper.map { refresh.ratioRoundedUp(over: $0) } ?? 1
        var last = refresh.ratioRoundedUp(over: lower)
        if refresh.divided(by: last) < lower { last -= 1 }
        guard first <= last else { return nil }
        let atOrBelow = refresh.ratioRoundedUp(over: wanted)
        let candidates = [atOrBelow - 1, atOrBelow].map { refresh.divided(by: min(last, max(first, $0))) }
        return nearest(to: wanted, among: candidates)
    }

    /// The nearest rate r with k·r inside `panel` for some whole k. Rates above
    /// the panel's maximum are not achievable; below it, the nearest is
    /// `wanted` itself when some multiple of it fits, else the edge of the gap
    /// it falls in: max/k below it, min/(k−1) above it.
    private static func nearestCompensated(in panel: ClosedRange<FrameRate>, to wanted: FrameRate,
                                           from lower: FrameRate, to upper: FrameRate?) -> FrameRate? {
        let top = min(upper ?? panel.upperBound, panel.upperBound)
        guard lower <= top else { return nil }
        let x = clamp(wanted, lower, top)
        let k = panel.lowerBound.ratioRoundedUp(over: x)
        if x.multiplied(by: k) <= panel.upperBound { return x }
        let below = panel.upperBound.divided(by: k)
        let above = panel.lowerBound.divided(by: k - 1)
        return nearest(to: x, among: [below, above].filter { lower <= $0 && $0 <= top })
    }

    /// The candidate nearest `wanted`, ties to the higher; nil for none.
    private static func nearest(to wanted: FrameRate, among candidates: [FrameRate]) -> FrameRate? {
        candidates.min { a, b in
            let da = abs(a.hz - wanted.hz), db = abs(b.hz - wanted.hz)
            return abs(da - db) <= 1e-9 * wanted.hz ? a > b : da < db
        }
    }

    private static func clamp(_ rate: FrameRate, _ lower: FrameRate, _ upper: FrameRate?) -> FrameRate {
        let raised = max(lower, rate)
        return upper.map { min($0, raised) } ?? raised
    }
}
