/// When to present one frame, and whether to repeat the previous one before it.
public struct PresentPlan: Equatable, Sendable {
    /// The display the plan was made for.
    public let timing: DisplayTiming
    /// The mode the plan was made in.
    public let mode: PresentMode
    /// When the frame will reach the glass if presented at ``submitAt``.
    public let onGlassAt: Nanoseconds
    /// Present no earlier than this.
    public let submitAt: Nanoseconds
    /// With variable refresh in effect, how to keep the panel inside its range
    /// while waiting for this frame (low framerate compensation); nil otherwise.
    public let compensation: LowFramerateCompensation?

    /// Plans the present of `frame` on the display as it is now (`timing`),
    /// the frame's work having ended at `workEnd` and the panel having last
    /// flipped at `lastFlip` (nil: unknown, before the first frame). When
    /// presents are timed, work that ended at most `tolerance` past the target
    /// (the link's ``DisplayLink/jitterTolerance``) still presents the frame
    /// for its target, at once: in real time a frame that overran by a few
    /// microseconds is better shown that much late, inside what counts as on
    /// time, than held a whole interval. With vsync a missed vblank is missed.
    ///
    /// The frame is for its target or, when the work ran past it, for the
    /// next slot of the link's cadence: a late frame is held to the cadence
    /// instead of being shown as soon as it is ready, so its lag is a whole
    /// number of intervals (motion on the glass keeps its speed) and the next
    /// callback starts on the cadence with a whole interval for its work. With
    /// variable refresh that is the next slot the panel can still show a frame
    /// on (see ``LowFramerateCompensation/canShow(at:after:from:)``) if one of
    /// the next two is; on a narrow range, where the panel may refresh by
    /// itself while the game works, else the first slot, shown when the panel is free.
    /// When the display changed since the frame was planned (a new mode, VRR
    /// switched), its target is not on the new display's grid: the frame is
    /// for the new display's first chance at or after it, never earlier.
    ///
    /// - vsync: half a refresh before that vblank. A present in the refresh
    ///   before a vblank is shown on it, so this is the middle of the one
    ///   refresh-long window whose presents land there: earlier would show the
    ///   frame a vblank early, and the middle tolerates an error in the
    ///   estimated vblank phase either way, which in real time is what
    ///   present-return jitter leaves.
    ///   `vsyncLead`, where the backend knows the vblanks from the platform's
    ///   own clock rather than estimating them, replaces the half refresh
    ///   (less than a whole one, so the present is still in the refresh before):
    ///   a present whose copy ends after the vblank misses it, and there is no
    ///   estimate's phase error to leave room for.
    /// - timed: exactly at that time, never earlier: with no vsync or with
    ///   variable refresh, a frame is shown when it is presented.
    public init(for frame: DisplayLinkFrame, on timing: DisplayTiming, workEndedAt workEnd: Nanoseconds,
                lastFlip: Nanoseconds?, tolerance: Nanoseconds = 0, vsyncLead: Nanoseconds? = nil) {
        self.timing = timing
        mode = PresentMode(for: timing)
        let target = frame.targetTimestampNanoseconds
        let ready = workEnd <= target + (mode == .timed ? tolerance : 0) ? target : workEnd
        switch timing {
        case .variable(let minimum, let maximum) where timing == frame.timing && lastFlip != nil:
            let panel = LowFramerateCompensation(minimum: minimum, maximum: maximum)
            // Within two slots; past that, as soon as the panel can, rather than far later on the cadence.
            onGlassAt = frame.cadence.firstSlot(atOrAfter: ready, limit: 2) {
                panel.canShow(at: $0, after: lastFlip!, from: min(workEnd, ready))
            }
        case _ where timing == frame.timing:
            onGlassAt = frame.cadence.firstSlot(atOrAfter: ready)
        case .fixed(let grid):
            onGlassAt = grid.time(at: grid.index(atOrAfter: ready))
        case .variable, .unsynced:
            onGlassAt = ready
        }
        switch timing {
        case .fixed(let grid):
            submitAt = onGlassAt - min(vsyncLead ?? grid.rate.period / 2, grid.rate.period - 1)
            compensation = nil
        case .variable(let minimum, let maximum):
            submitAt = onGlassAt
            compensation = LowFramerateCompensation(minimum: minimum, maximum: maximum)
        case .unsynced:
            submitAt = onGlassAt
            compensation = nil
        }
    }
}
