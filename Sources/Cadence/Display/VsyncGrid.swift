/// A train of evenly spaced instants: a fixed display's vblanks, or the link's
/// own cadence where nothing else constrains it (VRR, no vsync).
///
/// Instant `k` is `origin + rate.offset(ofFrame: k)`, exact in integers, for any
/// integer `k` (negative indices reach back before the origin).
@_spi(Programs) public struct VsyncGrid: Equatable, Sendable {
    /// The time of instant 0.
    public let origin: Nanoseconds
    /// The spacing, as a rate.
    public let rate: FrameRate
    /// The rate the system reports for the display when ``rate`` was measured
    /// (a compositor SDL calls 60 Hz that repaints at 62.5): rates are chosen
    /// on it, so a cap of 30 there is every second vblank, as a player means,
    /// and the frames are then paced on the measured grid. The grid's own rate
    /// when nothing else is known.
    public let nominalRate: FrameRate

    /// Whether ``rate`` was measured (a fit to a clock or to present returns)
    /// rather than known exactly: a cap then allows its divisions a few parts
    /// in ten thousand above it (`FrameRateSnapper/capTolerance`).
    public let isMeasured: Bool

    /// A grid with instant 0 at `origin`; `nominal` as ``nominalRate``.
    public init(origin: Nanoseconds, rate: FrameRate, nominal: FrameRate? = nil, measured: Bool = false) {
        self.origin = origin
        self.rate = rate
        nominalRate = nominal ?? rate
        isMeasured = measured
    }

    /// The time of instant `k`.
    public func time(at k: Int64) -> Nanoseconds {
        k >= 0 ? origin + rate.offset(ofFrame: k) : origin - rate.offset(ofFrame: -k)
    }

    /// The index of the first instant at or after `t`.
    public func index(atOrAfter t: Nanoseconds) -> Int64 {
        if t >= origin { return rate.frameIndex(atOrAfter: t - origin) }
        // Before the origin: the instant -j with origin - offset(j) >= t, j largest.
        var j = rate.frameIndex(atOrAfter: origin - t)
        if time(at: -j) < t { j -= 1 }
        return -j
    }

    /// The index of the first instant strictly after `t`.
    public func index(after t: Nanoseconds) -> Int64 {
        let k = index(atOrAfter: t)
        return time(at: k) == t ? k + 1 : k
    }

    /// The index of the last instant at or before `t`.
    public func index(atOrBefore t: Nanoseconds) -> Int64 {
        let k = index(atOrAfter: t)
        return time(at: k) == t ? k : k - 1
    }

    /// The index of the instant nearest `t` (ties to the later one).
    public func nearestIndex(to t: Nanoseconds) -> Int64 {
        let after = index(atOrAfter: t)
        return t - time(at: after - 1) < time(at: after) - t ? after - 1 : after
    }
}
