/// A frame or refresh rate, held exactly as a rational number of frames per second.
///
/// Display rates are often not whole, and not whole thousandths either: NTSC's
/// "59.94 Hz" is exactly 60000/1001 Hz, and a period of 16 683 333.33… ns. A
/// rate rounded to any fixed precision drifts against the real vblanks (a
/// millihertz short of 60000/1001 is 600 µs in ten minutes), so Cadence keeps
/// `numerator / denominator` exactly and never steps a timeline by a rounded
/// period: frame `k` of a grid is at `k × denominator × 10⁹ / numerator`
/// nanoseconds from its origin, rounded once, computed in 128-bit integers.
/// Every target is then the nearest nanosecond to its exact instant, after
/// hours as after one frame.
public struct FrameRate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Frames per ``denominator`` seconds; positive, in lowest terms with it.
    public let numerator: Int64
    /// Seconds per ``numerator`` frames; positive.
    public let denominator: Int64

    /// The largest denominator ``init(hz:)`` looks for: finer than any display
    /// timing (a pixel clock in kHz over a whole frame's pixels) needs.
    private static let largestDenominator: Int64 = 1_000_000

    /// Exactly `numerator / denominator` Hz, reduced to lowest terms.
    public init(numerator: Int64, denominator: Int64 = 1) {
        precondition(numerator > 0 && denominator > 0, "a frame rate must be positive")
        let divisor = greatestCommonDivisor(numerator, denominator)
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    /// The simplest rate within a part in 10¹² of `hz`: `59.94005994005994`
    /// is 60000/1001, `143.856` is 17982/125, `60` is 60/1.
    ///
    /// A `Double` cannot hold 60000/1001, so reading the decimal literally
    /// would be wrong in the 16th digit; the continued-fraction convergent
    /// recovers the rate the number was written for.
    public init(hz: Double) {
        precondition(hz.isFinite && hz > 0, "a frame rate must be positive and finite")
        precondition(hz < 1e9, "a frame rate must be below a gigahertz")
        // Convergents p/q of the continued fraction of hz, until one is close enough.
        var (p0, q0, p1, q1): (Int64, Int64, Int64, Int64) = (0, 1, 1, 0)
        var x = hz
        while true {
            let a = x.rounded(.down)
            // The next denominator a × q1 + q0 must stay within bounds (q1 is 0 only for the first term).
            guard a < 1e9, q1 == 0 || a <= Double(Self.largestDenominator / q1) else { break }
            let whole = Int64(a)
            let (p2, q2) = (whole * p1 + p0, whole * q1 + q0)
            guard q2 <= Self.largestDenominator else { break }
            (p0, q0, p1, q1) = (p1, q1, p2, q2)
            let fraction = x - a
            if p1 > 0 && abs(Double(p1) / Double(q1) - hz) <= hz * 1e-12 || fraction < 1e-15 { break }
            x = 1 / fraction
        }
        // Below one frame per million seconds no convergent is positive: the slowest representable rate.
        self.init(numerator: max(p1, 1), denominator: p1 > 0 ? q1 : Self.largestDenominator)
    }

    /// The rate whose period is exactly `period` nanoseconds.
    public init(period: Nanoseconds) {
        precondition(period > 0, "a period must be positive")
        self.init(numerator: TimeUnit.nanosecondsPerSecond, denominator: period)
    }

    /// The rate in Hz, for the API edge and for printing.
    public var hz: Double { Double(numerator) / Double(denominator) }

    /// One period rounded to the nearest nanosecond; for comparisons and margins,
    /// never for stepping a timeline (use ``offset(ofFrame:)``).
    public var period: Nanoseconds { offset(ofFrame: 1) }

    /// One period rounded down: the shortest gap between two instants of a
    /// grid at this rate, each rounded to the nearest nanosecond.
    public var shortestPeriod: Nanoseconds { offsetRoundedDown(ofFrame: 1) }

    /// One period rounded up: the longest gap between two instants of a grid at this rate.
    public var longestPeriod: Nanoseconds { offsetRoundedUp(ofFrame: 1) }

    /// Nanoseconds from a grid's origin to its frame `k` (k ≥ 0), rounded to nearest (halves up).
    public func offset(ofFrame k: Int64) -> Nanoseconds {
        let (quotient, remainder) = exactOffset(ofFrame: k)
        return remainder * 2 >= numerator ? quotient + 1 : quotient
    }

    /// `k` periods rounded down: the shortest `k` gaps of an exact grid at this rate can be.
    public func offsetRoundedDown(ofFrame k: Int64) -> Nanoseconds { exactOffset(ofFrame: k).quotient }

    /// `k` periods rounded up: the longest `k` gaps of an exact grid at this rate can be.
    public func offsetRoundedUp(ofFrame k: Int64) -> Nanoseconds {
        let (quotient, remainder) = exactOffset(ofFrame: k)
        return remainder == 0 ? quotient : quotient + 1
    }

    /// `k × denominator × 10⁹ / numerator` as a quotient and remainder (of
    /// `numerator`), without overflow for any time an `Int64` of nanoseconds holds.
    private func exactOffset(ofFrame k: Int64) -> (quotient: Nanoseconds, remainder: Int64) {
        precondition(k >= 0, "frame offsets are counted forward from the origin")
        // k = whole × numerator + part: `whole` full cycles of `denominator` seconds, then `part` frames.
        let whole = k / numerator, part = k % numerator
        let cycles = whole * denominator * TimeUnit.nanosecondsPerSecond
        let product = (part * denominator).multipliedFullWidth(by: TimeUnit.nanosecondsPerSecond)
        let (quotient, remainder) = numerator.dividingFullWidth(product)
        return (cycles + quotient, remainder)
    }

    /// The first frame index whose offset is at least `span` (span ≥ 0).
    public func frameIndex(atOrAfter span: Nanoseconds) -> Int64 {
        guard span > 0 else { return 0 }
        // span × numerator / (denominator × 10⁹) estimates k; rounding of offsets moves it by at most one.
        let product = span.multipliedFullWidth(by: numerator)
        var k = (denominator * TimeUnit.nanosecondsPerSecond).dividingFullWidth(product).quotient
        while k > 0 && offset(ofFrame: k - 1) >= span { k -= 1 }
        while offset(ofFrame: k) < span { k += 1 }
        return k
    }

    /// This rate divided by `n`: every n-th vsync, as on a fixed display below its refresh.
    public func divided(by n: Int64) -> FrameRate {
        FrameRate(numerator: numerator, denominator: denominator * n)
    }

    /// This rate times `n`: how often a panel refreshes when each frame is shown `n` times.
    public func multiplied(by n: Int64) -> FrameRate {
        FrameRate(numerator: numerator * n, denominator: denominator)
    }

    /// Whether `other` is this display's rate measured again: within half a
    /// percent, since a clock without a reported rate (X Present) names its
    /// fitted rate, which moves a little with every refit.
    func isRefit(of other: FrameRate) -> Bool {
        abs(hz / other.hz - 1) <= 0.005
    }

    /// `self / other` rounded up: the fewest repeats of each frame at `other`
    /// that refresh a panel at least `self` times a second, or the smallest
    /// divisor n with `self / n` no faster than `other`.
    public func ratioRoundedUp(over other: FrameRate) -> Int64 {
        // (n / d) / (on / od) = n × od / (d × on)
        let top = numerator.multipliedFullWidth(by: other.denominator)
        let (quotient, remainder) = (denominator * other.numerator).dividingFullWidth(top)
        return remainder == 0 ? quotient : quotient + 1
    }

    /// Slower rates order first, compared exactly.
    public static func < (a: FrameRate, b: FrameRate) -> Bool {
        let left = a.numerator.multipliedFullWidth(by: b.denominator)
        let right = b.numerator.multipliedFullWidth(by: a.denominator)
        return left.high != right.high ? left.high < right.high : left.low < right.low
    }

    /// `"60 Hz"`, `"59.94 Hz"`: at most three decimals, trailing zeros trimmed.
    public var description: String {
        let thousandths = Int64((hz * 1000).rounded())
        let whole = thousandths / 1000, fraction = thousandths % 1000
        if fraction == 0 { return "\(whole) Hz" }
        var digits = String(fraction + 1000).dropFirst()
        while digits.hasSuffix("0") { digits = digits.dropLast() }
        return "\(whole).\(digits) Hz"
    }
}
