/// What the display can show right now, as the display link must pace for it.
///
/// This is the link's whole view of the display: the simulator produces it from
/// its model, the SDL driver from the display mode, the vsync estimator and the
/// VRR detector. Variable refresh appears here only when it is really in effect
/// (a VRR panel *and* a fullscreen window); a VRR panel in a window is `.fixed`.
public enum DisplayTiming: Equatable, Sendable {
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
        case .unsynced(let reported): reported ?? FrameRate(millihertz: 60_000)
        }
    }

    /// The display's shortest frame interval (`CADisplayLink.duration`).
    public var minimumInterval: Nanoseconds { nativeRate.period }
}
