/// Everything measured about one display-link callback and the frame it made.
///
/// One record per callback feeds the statistics, the frame-time graph and the
/// traces (CSV and Chrome trace JSON). Times are integer nanoseconds on the
/// link's clock; traces print them as seconds since the run's start.
public struct FrameRecord: Sendable, Equatable {
    /// The callback's index, from 0.
    public var frame: Int
    /// The vsync at which the previous frame was shown (`CADisplayLink.timestamp`).
    public var timestamp: Nanoseconds
    /// When this frame is meant to be shown (`targetTimestamp`).
    public var targetTimestamp: Nanoseconds
    /// The part of ``targetTimestamp`` that is the present path's latency
    /// (``DisplayLinkFrame/pathLatency``): the frame went out for the slot
    /// `targetTimestamp - pathLatency`.
    public var pathLatency: Nanoseconds = 0
    /// The slot the frame was presented for: its target less the path's latency.
    package var slotTimestamp: Nanoseconds { targetTimestamp - pathLatency }
    /// When the frame reached the glass (simulation) or when present returned
    /// (real time): the trace's `present_time`, kept as it always was.
    public var presentTime: Nanoseconds
    /// When the frame reached the glass, as well as the platform told
    /// (``glassSource`` says how): what statistics judge the frame on. A
    /// per-frame report that arrives after the present replaces the first estimate.
    public var glassTime: Nanoseconds
    /// Where ``glassTime`` comes from.
    public var glassSource: GlassTimeSource
    /// `targetTimestamp` minus the previous callback's `targetTimestamp`.
    public var delta: Nanoseconds
    /// The limit the game asked for when the frame was planned (a range
    /// set on the link itself reads as ``FrameRateLimit/range(_:)``).
    public var limit: FrameRateLimit
    /// The rate the link paced this frame at, exactly (59.94 Hz is
    /// 60000/1001); nil when nothing paced it (``FrameRateLimit/uncapped``).
    public var rate: FrameRate?
    /// How frames reach the glass for this frame.
    @_spi(Programs) public var refreshMode: RefreshMode
    /// When the callback started: the game read its input and began its update.
    /// With ``FrameLatency/low`` the loop waited before this, so it lies
    /// closer to the target than the previous present.
    public var callbackStart: Nanoseconds
    /// When the game's work ended and the presenter began waiting.
    public var workEnd: Nanoseconds
    /// When the present was submitted (after the presenter's wait).
    public var presentSubmit: Nanoseconds
    /// Link intervals skipped before this callback (0 when on time).
    public var skippedFrames: Int
    /// Why the link ran at ``rate`` (``DisplayLinkFrame/rateReason``).
    public var rateReason: RateReason

    /// Whether anything paced the frame (see ``DisplayLinkFrame/isPaced``);
    /// an uncapped frame has no target to be late for.
    public var isPaced: Bool { rate != nil }
    /// Variable refresh's three states when the frame was presented, from the
    /// backend; nil where the backend does not judge them.
    @_spi(Programs) public var variableRefresh: VRRState?
    /// What the frame cost the loop's thread in CPU time, its work beside
    /// its pacing; nil where the backend has no CPU clock.
    public var cpu: FrameCPU?
    /// How long the frame waited on a display that stopped answering
    /// (`PresentOutcome.displayWait`); nil for every other frame. Such a
    /// frame is a pause: not a frame interval, a late frame or a hitch.
    public var displayWait: Nanoseconds?

    /// Input-to-glass latency: from the callback's start, when the game read
    /// its input, to ``glassTime``.
    public var inputToGlass: Nanoseconds { glassTime - callbackStart }

    /// How far past its target a frame may reach the glass and still count as
    /// on time: half a millisecond, below what a player can see at any rate,
    /// above the jitter of a present's return on a busy machine.
    public static let lateTolerance: Nanoseconds = 500_000

    /// How far past its target the frame went: its glass time less the
    /// target where it has a glass; with none (``GlassTimeSource/inferred``:
    /// vsync off, presents that do not wait) its submission less the target,
    /// since a present's own copy is not lateness on a glass that does not
    /// exist, less the path's latency (it was submitted for its slot).
    public var lateness: Nanoseconds {
        glassSource.hasGlass ? glassTime - targetTimestamp : presentSubmit - slotTimestamp
    }

    /// Whether the frame was late (see ``lateness``) by more than `tolerance`;
    /// never for an unpaced frame, which nothing made wait.
    public func isLate(tolerance: Nanoseconds = lateTolerance) -> Bool {
        isPaced && lateness > tolerance
    }

    /// A record; every field is stated, as traces print every one. Without
    /// a `glassTime` the frame is taken as reported on the glass at `presentTime`
    /// (the simulated display's own report).
    @_spi(Programs) public init(frame: Int, timestamp: Nanoseconds, targetTimestamp: Nanoseconds,
                presentTime: Nanoseconds, delta: Nanoseconds, limit: FrameRateLimit,
                rate: FrameRate?, refreshMode: RefreshMode,
                callbackStart: Nanoseconds, workEnd: Nanoseconds, presentSubmit: Nanoseconds,
                skippedFrames: Int, rateReason: RateReason = .request,
                glassTime: Nanoseconds? = nil, glassSource: GlassTimeSource = .feedback) {
        self.frame = frame; self.timestamp = timestamp; self.targetTimestamp = targetTimestamp
        self.presentTime = presentTime; self.glassTime = glassTime ?? presentTime; self.glassSource = glassSource
        self.delta = delta; self.limit = limit
        self.rate = rate; self.refreshMode = refreshMode
        self.callbackStart = callbackStart; self.workEnd = workEnd; self.presentSubmit = presentSubmit
        self.skippedFrames = skippedFrames
        self.rateReason = rateReason
    }
}
