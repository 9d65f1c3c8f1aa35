/// The frame rates a game would like, as `CAFrameRateRange` expresses them.
///
/// The link shows the achievable rate closest to `preferred` that lies inside
/// `minimum...maximum`; a `preferred` of 0 asks for the display's own rate.
/// `minimum` and `maximum` of 0 mean "no bound".
public struct FrameRateRange: Equatable, Sendable {
    /// The lowest acceptable rate in Hz (0: no bound).
    public var minimum: Double
    /// The highest acceptable rate in Hz (0: no bound).
    public var maximum: Double
    /// The rate wanted in Hz; 0 means the display's rate.
    public var preferred: Double

    /// A range; rates must be finite and non-negative.
    public init(minimum: Double = 0, maximum: Double = 0, preferred: Double) {
        precondition([minimum, maximum, preferred].allSatisfy { $0.isFinite && $0 >= 0 },
                     "frame rates must be finite and non-negative")
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }

    /// Just a preferred rate, like `preferredFramesPerSecond` (0 = display rate).
    public init(fps: Double) {
        self.init(preferred: fps)
    }

    /// The display's own rate, with no bounds: the default.
    public static let displayRate = FrameRateRange(preferred: 0)
}
