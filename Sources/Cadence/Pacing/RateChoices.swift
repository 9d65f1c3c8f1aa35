/// The rates a display can show evenly: what the adaptive controller picks
/// from, and what a game's FPS menu offers.
///
/// A fixed display shows every n-th vblank (R, R/2, R/3, ...). With variable
/// refresh in effect, or no vsync, any rate up to the display's maximum works.
@_spi(Programs) public enum RateChoices: Equatable, Sendable {
    /// Only these rates, highest first.
    case discrete([FrameRate])
    /// Any rate from ``floor`` to `maximum` (below a variable-refresh panel's
    /// minimum, the display's driver shows each frame more than once).
    case continuous(maximum: FrameRate)

    /// The slowest rate adaptive pacing will choose: below it a game is not playable anyway.
    public static let floor = FrameRate(numerator: 10)

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
            self = .continuous(maximum: maximum)
        case .unsynced:
            self = .continuous(maximum: timing.nativeRate)
        }
    }

    /// The highest rate.
    public var highest: FrameRate {
        switch self {
        case .discrete(let rates): rates[0]
        case .continuous(let maximum): maximum
        }
    }

    /// The highest rate whose frames leave at least `interval` for the game's
    /// work; the lowest choice when none is that slow.
    ///
    /// A continuous choice below the maximum is rounded down to a whole
    /// hertz, so the rate shown to the player reads cleanly; the maximum
    /// itself (a cap of 23.5, a 143.856 Hz panel) is kept where it leaves
    /// that much.
    public func highest(withIntervalAtLeast interval: Nanoseconds) -> FrameRate {
        switch self {
        case .discrete(let rates):
            return rates.first { $0.period >= interval } ?? rates[rates.count - 1]
        case .continuous(let maximum):
            guard interval > 0, maximum.period < interval else { return maximum }
            let wholeHz = TimeUnit.nanosecondsPerSecond / interval
            return min(maximum, max(Self.floor, FrameRate(numerator: max(1, wholeHz))))
        }
    }

    /// The choice nearest `rate`: where a rate chosen earlier stands now that
    /// the display may have changed (a refined refresh estimate, VRR toggled).
    public func nearest(to rate: FrameRate) -> FrameRate {
        switch self {
        case .discrete(let rates):
            return rates.min { abs($0.hz - rate.hz) < abs($1.hz - rate.hz) }!
        case .continuous(let maximum):
            return min(maximum, max(Self.floor, rate))
        }
    }
}
