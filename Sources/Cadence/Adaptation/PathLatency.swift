/// How much later than its slot a frame presented on plan reaches the glass
/// on this path, learned from the platform's own reports, so that a frame's
/// ``DisplayLinkFrame/targetTimestamp`` is when it really reaches the glass.
///
/// The presenter submits a frame for a slot of the link's cadence (the vblank
/// it is meant for, or the moment a timer-paced frame goes out). Most paths
/// show it there; some show it later every time: Mutter's headless virtual
/// monitor shows a frame on its own frame clock a fixed part of a refresh
/// after the timer sent it (and, busy, a whole refresh after the vblank after
/// the commit). A target that ignored that would make every frame "late" by
/// the same amount. Planning the target that much after the slot, and
/// presenting for the slot as before, keeps "late" for a frame that missed
/// the glass the path promised.
///
/// The latency is the least a frame whose work ended in time took from its
/// slot to the glass among the last ``window`` reports, once there are
/// ``evidence`` of them: a whole window, so that a spell of load (a frame
/// shown late across a mode switch, a compositor starved for a second) is not
/// taken for a path. Frames planned on a latency the path then sheds are on
/// the glass before their targets until its first faster report comes back,
/// so a latency is learned only where it held for that long (on vkms under
/// emulation, 8 reports of a starved Weston at 6 Hz were learned, and two
/// frames came a refresh early when it caught up). It is never more than the
/// path showed; one report of a faster path lowers it at once (a frame shown
/// before its target is the worse error), a slower path raises it once every
/// recent report says so. On a fixed grid it is a whole number of refreshes
/// (a report up to an eighth of a refresh short of one is the grid's own
/// error), so targets stay on the display's vblanks.
///
/// Without a grid (a compositor whose reports carry no vsync flag and lie on
/// no even grid: Mutter's headless monitor, Weston 16's output idle at a cap)
/// none is learned: a frame's delay from the loop's slot there is the phase
/// between the loop's timer and the compositor's own clock, which moves. Loaded,
/// Mutter's reports scatter by 2 to 12 ms, and even the least of a whole
/// window put frames up to 7 ms before their targets, and targets of a cap
/// closer than its interval as it moved. Frames there are planned at their
/// slots and reported late when shown later: honest, never early. With
/// variable refresh in effect a frame is shown when presented, by
/// construction: none is learned there either (a panel that shows on vblanks
/// after all is the `VariableRefreshTracker`'s to find).
package struct PathLatency: Sendable {
    /// How many recent reports the least is taken over: half a second at 60 Hz.
    package static let window = 30
    /// How many reports it takes to learn a latency at all: the whole window.
    package static let evidence = window
    private var recent = RingBuffer<Nanoseconds>(capacity: Self.window)
    /// The display the latency was learned on.
    private var display: (mode: RefreshMode, rate: FrameRate)?

    /// Nothing learned: the path shows a frame at its slot.
    package init() {}

    /// Learns from one frame's final record: only a paced frame on a fixed grid whose glass
    /// time the platform reported (``GlassTimeSource/feedback``) and whose
    /// work ended by its slot, so the present went out as planned; a late
    /// frame's lateness is its own, not the path's, and so is a timed
    /// present's that went out late (a late wake-up).
    package mutating func observe(_ record: FrameRecord) {
        let slot = record.slotTimestamp
        guard record.isPaced, record.refreshMode == .fixed, record.glassSource == .feedback,
              record.workEnd <= slot, record.presentSubmit <= slot + FrameRecord.lateTolerance else { return }
        let latency = max(0, record.glassTime - slot)
        recent.append(latency)
    }

    /// The latency to plan a frame on `timing` with: on a fixed grid the least
    /// recent one in whole refreshes (0 before ``evidence`` reports); 0
    /// without a grid and with variable refresh.
    package func latency(on timing: DisplayTiming) -> Nanoseconds {
        let reports = recent.elements
        guard case .fixed(let grid) = timing, reports.count >= Self.evidence, let least = reports.min() else { return 0 }
        let period = grid.rate.period
        return (least + period / 8) / period * period
    }

    /// Takes the display each frame is planned on, and forgets what was
    /// learned when it is another (another refresh mode, or a rate that is
    /// not a refit of the last: ``FrameRate/isRefit(of:)``), whose path is another.
    package mutating func follow(_ timing: DisplayTiming) {
        if let display, display.mode != timing.refreshMode || !timing.nativeRate.isRefit(of: display.rate) {
            recent = RingBuffer(capacity: Self.window)
        }
        display = (timing.refreshMode, timing.nativeRate)
    }
}
