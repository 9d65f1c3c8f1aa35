/// What the display can show right now, as the display link must pace for it.
///
/// This is the link's whole view of the display: the simulator produces it from
/// its model, the SDL driver from the display mode, the vsync estimator and the
/// VRR detector. Variable refresh appears here only when it is really in effect
/// (a VRR panel *and* a fullscreen window); a VRR panel in a window is `.fixed`.
@_spi(Programs) public enum DisplayTiming: Equatable, Sendable {
    /// Vsync on a fixed refresh: frames can only appear on these vblanks.
    case fixed(VsyncGrid)
    /// Variable refresh in effect: any interval between `1/maximum` and `1/minimum`.
    case variable(minimum: FrameRate, maximum: FrameRate)
    /// No vsync: a frame shows when presented. `reported` is the display's mode
    /// rate when known, used when the game asks for "the display's rate".
    case unsynced(reported: FrameRate?)

    /// The trace's name for this kind of timing.
    public var refreshMode: RefreshMode {
        switch self {
        case .fixed: .fixed
        case .variable: .variable
        case .unsynced: .none
        }
    }

    /// The display's own rate: what "0 = the display's rate" means here. For
    /// VRR, its maximum; with no vsync, the reported rate or 60 Hz when unknown.
    public var nativeRate: FrameRate {
        switch self {
        case .fixed(let grid): grid.rate
        case .variable(_, let maximum): maximum
        case .unsynced(let reported): reported ?? FrameRate(numerator: 60)
        }
    }

    /// The display's shortest frame interval (`CADisplayLink.duration`).
    public var minimumInterval: Nanoseconds { nativeRate.period }

    /// The shortest gap between two flips: for a variable-refresh panel 1/maximum
    /// rounded down, so that flips on an exact grid at the maximum rate, each
    /// rounded to the nanosecond, always qualify; 0 otherwise (a fixed grid
    /// spaces flips itself, and without vsync any gap goes).
    public var shortestFlipInterval: Nanoseconds {
        if case .variable(_, let maximum) = self { return maximum.shortestPeriod }
        return 0
    }
}
