/// The rate the link will actually run at, and how it lands on the display.
public struct EffectiveRate: Equatable, Sendable {
    /// The link's frame rate.
    public let rate: FrameRate
    /// On a fixed display, the link fires every `vsyncStride`-th vblank (rate = R/n); 1 otherwise.
    public let vsyncStride: Int64
    /// Low framerate compensation: each frame is shown this many times, evenly
    /// spaced, so a VRR panel stays inside its range below its minimum. 1 = no repeats.
    public let presentsPerFrame: Int64
}

/// Turns what a game prefers into what the display can show.
///
/// The rules, with the examples the tests hold:
/// - Fixed refresh R: achievable rates are R/n. The one closest to `preferred`
///   inside the range wins, ties to the higher rate (60 Hz: 40 → 30, 26 → 30,
///   35 → 30, 50 → 60; 120 Hz: 40 → 40). No achievable rate inside the range:
///   the closest overall.
/// - Variable refresh in effect: any rate; above the maximum → the maximum;
///   below the minimum the rate is kept and each frame is presented several
///   times (low framerate compensation).
/// - No vsync: exactly the requested rate.
/// A `preferred` of 0 means the display's rate.
public enum FrameRateSnapper {
    /// The slowest rate Cadence will run: one frame a second.
    public static let slowest = FrameRate(millihertz: 1_000)

    /// The rate to run at for `range` on a display with `timing`.
    public static func effectiveRate(for range: FrameRateRange, on timing: DisplayTiming) -> EffectiveRate {
        let native = timing.nativeRate
        let wanted = range.preferred == 0 ? native.hz : range.preferred
        switch timing {
        case .fixed(let grid):
            let n = bestDivisor(of: grid.rate, toward: wanted, within: range)
            return EffectiveRate(rate: grid.rate.divided(by: n), vsyncStride: n, presentsPerFrame: 1)
        case .variable(let minimum, let maximum):
            let rate = max(slowest, min(maximum, FrameRate(hz: wanted)))
            // The fewest repeats that lift the panel's rate to at least its minimum.
            var repeats: Int64 = 1
            while rate.millihertz * repeats < minimum.millihertz { repeats += 1 }
            return EffectiveRate(rate: rate, vsyncStride: 1, presentsPerFrame: repeats)
        case .unsynced:
            return EffectiveRate(rate: max(slowest, FrameRate(hz: wanted)), vsyncStride: 1, presentsPerFrame: 1)
        }
    }

    /// The divisor n of `refresh` whose rate R/n is nearest `wanted`, preferring
    /// those inside `range`; ties go to the higher rate (the smaller n).
    static func bestDivisor(of refresh: FrameRate, toward wanted: Double, within range: FrameRateRange) -> Int64 {
        let maxDivisor = max(1, refresh.millihertz / slowest.millihertz)
        var best: (n: Int64, inside: Bool, distance: Double)?
        var n: Int64 = 1
        while n <= maxDivisor {
            let hz = refresh.hz / Double(n)
            let candidate = (n: n, inside: range.admits(hz), distance: abs(hz - wanted))
            if let current = best {
                let better = candidate.inside != current.inside
                    ? candidate.inside
                    : candidate.distance < current.distance - 1e-9
                if better { best = candidate }
            } else {
                best = candidate
            }
            // Rates only fall from here; once below the wanted rate and the range, stop.
            if hz < wanted && (range.minimum == 0 || hz < range.minimum) { break }
            n += 1
        }
        return best?.n ?? 1
    }
}
