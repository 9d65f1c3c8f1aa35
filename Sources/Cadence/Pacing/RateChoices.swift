/// The rates a display can show evenly: what the adaptive controller picks from.
///
/// A fixed display shows every n-th vblank (R, R/2, R/3, ...); variable
/// refresh in effect, or no vsync, any rate up to the display's maximum.
public enum RateChoices: Equatable, Sendable {
    /// Only these rates, highest first.
    case discrete([FrameRate])
    /// Any rate from `minimum` to `maximum`.
    case continuous(minimum: FrameRate, maximum: FrameRate)

    /// The slowest rate adaptive pacing will choose: below it a game is not playable anyway.
    public static let floor = FrameRate(millihertz: 10_000)

    /// The choices on a display with `timing`.
    public init(_ timing: DisplayTiming) {
        switch timing {
        case .fixed(let grid):
            var rates: [FrameRate] = []
            var n: Int64 = 1
            while n == 1 || grid.rate.divided(by: n) >= Self.floor {
                rates.append(grid.rate.divided(by: n))
                n += 1
            }
            self = .discrete(rates)
        case .variable(_, let maximum):
            // Below the panel's minimum the presenter repeats frames (LFC), so any rate works.
            self = .continuous(minimum: Self.floor, maximum: maximum)
        case .unsynced:
            self = .continuous(minimum: Self.floor, maximum: timing.nativeRate)
        }
    }

    /// The highest rate.
    public var highest: FrameRate {
        switch self {
        case .discrete(let rates): rates[0]
        case .continuous(_, let maximum): maximum
        }
    }

    /// The highest rate whose frame interval is at least `interval`; the
    /// lowest choice when none is that slow. A continuous choice is rounded
    /// down to a whole hertz, so the rate shown to the player reads cleanly.
    public func highest(withIntervalAtLeast interval: Nanoseconds) -> FrameRate {
        switch self {
        case .discrete(let rates):
            return rates.first { $0.period >= interval } ?? rates[rates.count - 1]
        case .continuous(let minimum, let maximum):
            guard interval > 0 else { return maximum }
            let wholeHz = (TimeUnit.nanosecondsPerSecond / interval) * 1_000
            return min(maximum, max(minimum, FrameRate(millihertz: max(1, wholeHz))))
        }
    }
}
