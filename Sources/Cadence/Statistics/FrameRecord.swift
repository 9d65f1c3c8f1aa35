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
    /// When the frame reached the glass (simulation) or when present returned (real time).
    public var presentTime: Nanoseconds
    /// `targetTimestamp` minus the previous callback's `targetTimestamp`.
    public var delta: Nanoseconds
    /// The requested rate in FPS; 0 means the display's rate, `nil` means adaptive.
    public var fpsCap: Double?
    /// The rate the link paced this frame at, in Hz; 0 when nothing paced it (uncapped).
    public var effectiveHz: Double
    /// How frames reach the glass for this frame.
    public var refreshMode: RefreshMode
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
    /// Whether anything paced the frame (see ``DisplayLinkFrame/isPaced``);
    /// an uncapped frame has no target to be late for.
    public var isPaced: Bool

    /// Input-to-glass latency: from the callback's start, when the game read
    /// its input, to `presentTime`.
    public var inputToGlass: Nanoseconds { presentTime - callbackStart }

    /// How far past its target a frame may reach the glass and still count as
    /// on time: half a millisecond, below what a player can see at any rate,
    /// above the jitter of a present's return on a busy machine.
    public static let lateTolerance: Nanoseconds = 500_000

    /// Whether the frame reached the glass after its target (by more than
    /// `tolerance`); never for an unpaced frame, which nothing made wait.
    public func isLate(tolerance: Nanoseconds = lateTolerance) -> Bool {
        isPaced && presentTime - targetTimestamp > tolerance
    }

    /// A record; every field is stated, as traces print every one.
    public init(frame: Int, timestamp: Nanoseconds, targetTimestamp: Nanoseconds,
                presentTime: Nanoseconds, delta: Nanoseconds, fpsCap: Double?,
                effectiveHz: Double, refreshMode: RefreshMode,
                callbackStart: Nanoseconds, workEnd: Nanoseconds, presentSubmit: Nanoseconds,
                skippedFrames: Int, isPaced: Bool = true) {
        self.frame = frame; self.timestamp = timestamp; self.targetTimestamp = targetTimestamp
        self.presentTime = presentTime; self.delta = delta; self.fpsCap = fpsCap
        self.effectiveHz = effectiveHz; self.refreshMode = refreshMode
        self.callbackStart = callbackStart; self.workEnd = workEnd; self.presentSubmit = presentSubmit
        self.skippedFrames = skippedFrames
        self.isPaced = isPaced
    }
}
