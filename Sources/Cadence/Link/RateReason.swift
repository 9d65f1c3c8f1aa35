/// Why the link runs at the rate it does: what holds the rate where it is.
///
/// Every frame carries one (``DisplayLinkFrame/rateReason``), and so does its
/// record, the trace and ``FrameStatistics``, so a game, its overlay and a
/// reader of a trace can say why the rate is below what was asked for.
public enum RateReason: Equatable, Sendable {
    /// The rate the game asked for, which the display shows evenly.
    case request
    /// The display's own rate: the game asked for it, or for more than the display shows.
    case displayRate
    /// The display cannot show the requested rate evenly; the link runs the
    /// achievable rate the request allows (a cap of 45 on 60 Hz: 30).
    case evenRate
    /// The present path: presents were seen to reach only `reached` a second
    /// (`PresentThroughput`), so the link runs the highest even rate at or below that.
    case presents(reached: FrameRate)
    /// The game's work: the link runs the fastest even rate whose interval
    /// holds frames that recently took `cost` (`WorkRateCeiling`: the work
    /// at a request; adaptive, the whole cost with headroom).
    case work(cost: Nanoseconds)

    /// Why the request `range` alone gives `rate` on `timing`: the display's
    /// own rate (asked for, or more than the display shows), the request
    /// itself, or the nearest rate the display shows evenly.
    static func forRequest(_ range: FrameRateRange, running rate: FrameRate, on timing: DisplayTiming) -> RateReason {
        let asked = range.preferred
        let native = timing.nativeRate.hz
        let tolerance = FrameRateSnapper.capTolerance
        if asked <= 0 || (asked >= native * (1 - tolerance) && rate.hz >= native * (1 - tolerance)) {
            return .displayRate
        }
        return abs(rate.hz - asked) <= asked * tolerance ? .request : .evenRate
    }

    /// One word for each case, as traces print it.
    public var name: String {
        switch self {
        case .request: "request"
        case .displayRate: "display-rate"
        case .evenRate: "even-rate"
        case .presents: "presents"
        case .work: "work"
        }
    }

    /// One line for an overlay or a log: why frames come at `hz` a second.
    public func sentence(runningAt hz: Double) -> String {
        let rate = Self.hz(hz)
        return switch self {
        case .request: "\(rate) FPS, as requested"
        case .displayRate: "\(rate) FPS, the display's rate"
        case .evenRate: "\(rate) FPS, the nearest rate the display shows evenly"
        case .presents(let reached): "presents reach \(Self.hz(reached.hz))/s: running at \(rate)"
        case .work(let cost): "work \(Self.milliseconds(cost)) ms a frame: running at \(rate)"
        }
    }

    private static func hz(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static func milliseconds(_ value: Nanoseconds) -> String {
        let tenths = (value + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// The fastest the link may run for a reason other than the game's request:
/// what the present path or the game's work allows (see ``DisplayLink/rateCeiling``).
@_spi(Programs) public struct RateCeiling: Equatable, Sendable {
    /// The highest rate allowed; the link runs the highest achievable rate at or below it.
    public let rate: FrameRate
    /// What imposes it: ``RateReason/presents(reached:)`` or ``RateReason/work(cost:)``.
    public let reason: RateReason

    /// A ceiling of `rate` for `reason`.
    public init(rate: FrameRate, reason: RateReason) {
        self.rate = rate
        self.reason = reason
    }

    /// The lower of two ceilings (either may be absent); on a tie, `a`.
    public static func lower(_ a: RateCeiling?, _ b: RateCeiling?) -> RateCeiling? {
        guard let a else { return b }
        guard let b else { return a }
        return b.rate < a.rate ? b : a
    }
}
