@_spi(Programs) import Cadence

/// The display's clock where the platform gives none: a vblank grid fitted
/// to the times presents return (``VsyncEstimator``), from the rate SDL
/// reports, for as long as presents are seen to wait for the display
/// (``PresentBlockingCheck``). Where they do not, or the rate is unknown, the
/// timer paces the frames. The platform clocks stand on it until they know
/// their own grid.
final class PresentReturnClock: DisplayClock {
    /// The display mode's rate, as SDL reports it; nil when unknown.
    let nominal: FrameRate?
    private var estimator: VsyncEstimator?
    private var blocking: PresentBlockingCheck
    /// When the mode began.
    let since: Nanoseconds
    let source = DisplayClockSource.presentReturns

    /// A clock for a mode of rate `nominal` that began at `since`;
    /// `throttledByCompositor` as ``PresentBlockingCheck`` takes it.
    init(nominal: FrameRate?, since: Nanoseconds, throttledByCompositor: Bool) {
        self.nominal = nominal
        self.since = since
        estimator = nominal.map { VsyncEstimator(nominal: $0) }
        blocking = PresentBlockingCheck(throttledByCompositor: throttledByCompositor)
    }

    var timing: DisplayTiming {
        guard let nominal else { return .unsynced(reported: nil) }
        guard blocking.presentsBlock else { return .unsynced(reported: estimator?.measuredRate ?? nominal) }
        return .fixed(grid(nominal))
    }

    var note: TimingNote? {
        if nominal == nil { return .refreshRateUnknown }
        return blocking.presentsBlock ? nil : .presentsDoNotWaitForVblank
    }

    /// The fitted grid; until it exists (or where presents never wait for the
    /// display, so none is made), one at the nominal rate through the mode
    /// change: the same grid however often asked, so the link's cadence keeps
    /// its slots. Through the last present instead, it would move with the
    /// loop's own presents.
    private func grid(_ nominal: FrameRate) -> VsyncGrid {
        estimator?.grid ?? VsyncGrid(origin: since, rate: nominal)
    }

    /// Where presents are not throttled by the compositor (X11: XWayland's
    /// clock that does not tick, a server without Present), just after the
    /// grid's instant before (`PresentPlan.compositedVsyncLead(period:)`). A
    /// present that waits returns some part of a refresh after the vblank
    /// that showed its frame, so the fitted instants lie up to a refresh after
    /// the real vblanks: half a refresh before an instant is after its vblank
    /// whenever the returns come more than half a refresh late, and every
    /// frame is then shown a vblank late, its successor a slot later, and the
    /// loop learns that presents reach only half the rate. Just after the
    /// instant before is after the vblank before (never early) and before the
    /// frame's own, as a plain vsync loop presents. Throttled: half a refresh.
    func vsyncLead(period: Nanoseconds) -> Nanoseconds? {
        blocking.throttledByCompositor ? nil : PresentPlan.compositedVsyncLead(period: period)
    }

    /// Notes the present; a present that waited returned on the vblank that
    /// showed a frame: its own, or where the compositor throttles presents
    /// (SDL on Wayland waits for the previous frame's callback, then commits)
    /// the one before, so its own is shown on the next. One that did not wait
    /// is shown at the first vblank after it. Either way, never on a vblank
    /// before the present was made: a present made just after a vblank that
    /// returns a quarter refresh later (a copy slowed by a busy machine, not a
    /// wait) lies nearest that vblank, which it cannot have reached.
    func presented(submittedAt submitted: Nanoseconds, returnedAt returned: Nanoseconds) -> GlassEstimate {
        guard var estimator else { return .inferred(returned) }
        estimator.addPresent(submittedAt: submitted, returnedAt: returned)
        self.estimator = estimator
        blocking.note(blocked: returned - submitted, period: estimator.nominal.period)
        guard blocking.presentsBlock else { return .inferred(returned) }
        let grid = grid(estimator.nominal)
        guard estimator.waitedForDisplay(blocked: returned - submitted) else {
            return .firstVblank(of: grid, after: returned, source: .estimated)
        }
        let shown = max(grid.nearestIndex(to: returned) + (blocking.throttledByCompositor ? 1 : 0),
                        grid.index(atOrAfter: submitted))
        return GlassEstimate(time: grid.time(at: shown), source: .estimated)
    }
}
