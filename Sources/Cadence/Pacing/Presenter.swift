/// The presenter: gets each frame to the glass at its target.
///
/// It owns what presenting needs from one frame to the next: when the last
/// frames reached the glass (``flips``), the wait before the present, making
/// the plan again when the display changes during that wait, and, for low
/// latency, the wait before the callback. The ``FrameLoop`` asks the link for
/// a frame, runs the game's callback and hands the frame here.
package final class Presenter {
    /// Where frames are shown.
    public let backend: FrameBackend
    /// When the last two frames reached the glass.
    public private(set) var flips = FlipHistory()
    /// The display the last frame was presented on.
    private var lastTiming: DisplayTiming?
    /// Keeps new frames at least the cap's interval apart (see `CapSpacing`).
    private var capSpacing = CapSpacing()
    /// The moment of the last frame the platform holds (see `FrameBackend.holdsPresents(on:)`).
    private var heldMoment: Nanoseconds?

    /// A presenter for `backend`.
    public init(backend: FrameBackend) {
        self.backend = backend
    }

    /// The flips a frame on `timing` is planned from: a variable-refresh
    /// driver spaces its repeats by the previous frame's time on the glass
    /// only on the display it was shown on, so after a change only the last
    /// flip counts.
    public func flips(on timing: DisplayTiming) -> FlipHistory {
        timing == lastTiming ? flips : FlipHistory(last: flips.last)
    }

    /// Forgets the glass: after a pause, the next frame is planned as a first one.
    public func forget() {
        flips = FlipHistory()
        capSpacing.reset()
        lastTiming = nil
        heldMoment = nil
    }

    /// With ``FrameLatency/low``: waits until `frame`'s callback should start,
    /// its target less `lead` (the predicted cost of the frame), so the
    /// callback reads input as late as the frame can afford. With nothing
    /// learned yet (`lead` nil) it starts at once.
    public func waitForJustInTimeStart(of frame: DisplayLinkFrame, lead: Nanoseconds?) {
        guard let lead else { return }
        backend.wait(until: frame.slotNanoseconds - lead)
    }

    /// The present's wait for `deadline` in `mode`: precise when the frame
    /// shows when presented (timed); with vsync a plain sleep, since the
    /// plan leaves part of a refresh before the vblank and the present
    /// waits for it anyway, so spinning there would buy nothing.
    private func wait(until deadline: Nanoseconds, in mode: PresentMode) {
        switch mode {
        case .timed: backend.wait(until: deadline)
        case .vsync: backend.sleep(until: deadline)
        }
    }

    /// Presents `frame`, whose work ended at `workEnd`, per its `PresentPlan`:
    /// waits for the plan's moment, makes the plan again if the display
    /// changed meanwhile (a mode switch, VRR toggled), then presents once.
    /// `tolerance` is the link's ``DisplayLink/jitterTolerance``; `cap`, the
    /// rate no two new frames may exceed (see `CapSpacing`), nil for none.
    /// Returns what the backend knows of the present, when it was submitted,
    /// and the thread CPU time the wait took (nil without the backend's CPU clock).
    public func present(_ frame: DisplayLinkFrame, workEndedAt workEnd: Nanoseconds, tolerance: Nanoseconds,
                        cap: FrameRate? = nil) -> (outcome: PresentOutcome, submitted: Nanoseconds, waitCPU: Nanoseconds?) {
        let cpuBefore = backend.threadCPUTime
        let clock = backend.clock
        var timing = backend.currentTiming()
        var lead = backend.vsyncLead(on: timing)
        var plan = PresentPlan(for: frame, on: timing, workEndedAt: workEnd, flips: flips(on: timing),
                               tolerance: tolerance, vsyncLead: lead)
        if backend.holdsPresents(on: timing) {
            // The platform holds the frame to its moment: no wait here for
            // the moment or for a cap (the moments are the cap's slots), only
            // for the frame before to be due, so one frame at most is held.
            if let held = heldMoment { backend.sleep(until: held) }
            heldMoment = plan.onGlassAt
            let submitted = clock.now
            let waitCPU = cpuBefore.flatMap { before in backend.threadCPUTime.map { $0 - before } }
            let outcome = backend.present(notBefore: plan.onGlassAt)
            capSpacing.presented(at: plan.submitAt, cap: cap, lead: lead)
            recordFlip(outcome, on: timing)
            return (outcome, submitted, waitCPU)
        }
        var scheduled = plan.submitAt
        while true {
            scheduled = max(plan.submitAt, capSpacing.earliestPresent(cap: cap, lead: lead) ?? plan.submitAt)
            wait(until: scheduled, in: plan.mode)
            timing = backend.currentTiming()
            if timing == plan.timing { break }
            lead = backend.vsyncLead(on: timing)
            plan = PresentPlan(for: frame, on: timing, workEndedAt: clock.now, flips: flips(on: timing),
                               tolerance: tolerance, vsyncLead: lead)
        }
        let submitted = clock.now
        let waitCPU = cpuBefore.flatMap { before in backend.threadCPUTime.map { $0 - before } }
        let outcome = backend.present()
        capSpacing.presented(at: scheduled, cap: cap, lead: lead)
        recordFlip(outcome, on: timing)
        return (outcome, submitted, waitCPU)
    }

    /// Keeps where the frame presented on `timing` reached the glass.
    private func recordFlip(_ outcome: PresentOutcome, on timing: DisplayTiming) {
        flips = flips(on: timing)
        flips.record(outcome.shownAt)
        lastTiming = timing
    }
}
