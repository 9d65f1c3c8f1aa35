/// A frame or refresh rate, held exactly as an integer number of millihertz.
///
/// Rates like 59.94 Hz have no whole-nanosecond period (16 683 350.0167 ns), so
/// Cadence never steps a timeline by a rounded period: frame `k` of a grid is at
/// `k × 10¹² / mHz` nanoseconds from its origin, computed in 128-bit integers.
/// That keeps targets exactly on the vsync grid after hours (no drift), which a
/// `Double` period or an accumulated rounded period cannot.
public struct FrameRate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The rate in thousandths of a hertz; always positive.
    public let millihertz: Int64

    private static let picosecondsPerSecond: Int64 = 1_000_000_000_000

    /// A rate of exactly `millihertz / 1000` Hz.
    public init(millihertz: Int64) {
        precondition(millihertz > 0, "a frame rate must be positive")
        self.millihertz = millihertz
    }

    /// The rate nearest `hz` to a thousandth of a hertz.
    public init(hz: Double) {
        precondition(hz.isFinite && hz > 0, "a frame rate must be positive and finite")
        self.init(millihertz: max(1, Int64((hz * 1000).rounded())))
    }

    /// The rate whose period is `period` nanoseconds, to the nearest millihertz.
    public init(period: Nanoseconds) {
        precondition(period > 0, "a period must be positive")
        self.init(millihertz: max(1, (Self.picosecondsPerSecond + period / 2) / period))
    }

    /// The rate in Hz, for the API edge and for printing.
    public var hz: Double { Double(millihertz) / 1000 }

    /// One period rounded to the nearest nanosecond; for comparisons and margins,
    /// never for stepping a timeline (use ``offset(ofFrame:)``).
    public var period: Nanoseconds { offset(ofFrame: 1) }

    /// Nanoseconds from a grid's origin to its frame `k` (k ≥ 0), rounded to nearest.
    public func offset(ofFrame k: Int64) -> Nanoseconds {
        let product = k.multipliedFullWidth(by: Self.picosecondsPerSecond)
        let (quotient, remainder) = millihertz.dividingFullWidth(product)
        return remainder * 2 >= millihertz ? quotient + 1 : quotient
    }

    /// The first frame index whose offset is at least `span` (span ≥ 0).
    public func frameIndex(atOrAfter span: Nanoseconds) -> Int64 {
        guard span > 0 else { return 0 }
        let product = span.multipliedFullWidth(by: millihertz)
        var k = Self.picosecondsPerSecond.dividingFullWidth(product).quotient
        while k > 0 && offset(ofFrame: k - 1) >= span { k -= 1 }
        while offset(ofFrame: k) < span { k += 1 }
        return k
    }

    /// This rate divided by `n`: every n-th vsync, as on a fixed display below its refresh.
    public func divided(by n: Int64) -> FrameRate {
        FrameRate(millihertz: max(1, (millihertz + n / 2) / n))
    }

    /// Slower rates order first, compared exactly in millihertz.
    public static func < (a: FrameRate, b: FrameRate) -> Bool { a.millihertz < b.millihertz }

    /// `"59.94 Hz"`, trailing zeros trimmed.
    public var description: String {
        let whole = millihertz / 1000, frac = millihertz % 1000
        if frac == 0 { return "\(whole) Hz" }
        var digits = String(frac + 1000).dropFirst()
        while digits.hasSuffix("0") { digits = digits.dropLast() }
        return "\(whole).\(digits) Hz"
    }
}
