/// Paces for variable refresh only once it is in effect: requested by the
/// policy's decision, and seen in the frames' measured glass times.
///
/// A capable display and a fullscreen window are not enough: the compositor
/// may keep variable refresh off (its own setting, a window it does not
/// flip), and pacing at rates the fixed grid cannot show would put frames a
/// refresh late. So the loop paces on the fixed grid until the glass times
/// fall off it (``GridIntervalMeter``), and back on it once they stop.
/// A backend owns one; it tells it the decision on every detection and each
/// frame's measured glass time as it learns it.
@_spi(Programs) public struct VariableRefreshTracker: Sendable {
    /// The policy's decision for the window's display; nil before any (or headless).
    public private(set) var decision: VRRDecision?
    /// The fixed mode's rate the intervals are judged against; nil when unknown.
    public private(set) var modeRate: FrameRate?
    private var meter = GridIntervalMeter()
    private var lastGlass: Nanoseconds?

    /// A tracker with no decision: never in effect.
    public init() {}

    /// A new decision (a fullscreen toggle, a display or mode change): the
    /// intervals measured so far were on another display or mode, so they go.
    public mutating func update(decision: VRRDecision?, modeRate: FrameRate?) {
        self.decision = decision
        self.modeRate = modeRate
        meter.reset()
        lastGlass = nil
    }

    /// The next shown frame's measured glass time (never an estimate or an
    /// inference, which lie on the grid they were fitted to or on none).
    /// A frame paced on the fixed grid was aimed at a vblank: it is judged
    /// against the mode's vblank `grid` where the backend knows it. One paced
    /// for variable refresh was aimed at a time of its own, which may lie on
    /// a vblank by chance: it is judged by its interval from the last.
    public mutating func noteGlass(at time: Nanoseconds, grid: VsyncGrid? = nil) {
        if let grid, rangeInEffect == nil {
            meter.add(glass: time, grid: grid)
        } else if let lastGlass, let modeRate {
            meter.add(interval: time - lastGlass, period: modeRate.period)
        }
        lastGlass = time
    }

    /// The next glass time does not follow the last one (a pause, vsync toggled).
    public mutating func noteGap() {
        lastGlass = nil
    }

    /// The range to pace in: the requested one once in effect, else nil.
    public var rangeInEffect: (minimum: FrameRate, maximum: FrameRate)? {
        guard let decision, decision.isRequested, meter.isOffGrid else { return nil }
        return decision.requestedRange
    }

    /// The three states and their evidence; nil with no decision.
    public var state: VRRState? {
        decision.map { VRRState(decision: $0, meter: meter, rate: modeRate) }
    }
}
