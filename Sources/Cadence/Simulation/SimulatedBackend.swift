/// The frame loop's backend for a ``SimulatedDisplay`` on a ``VirtualClock``.
///
/// Waiting and work move virtual time; a present blocks until its frame is on
/// the glass, as a vsync'd present does. Runs as fast as the CPU allows.
@_spi(Programs) public final class SimulatedBackend: FrameBackend, ScriptedWork {
    /// The simulated monitor.
    public let display: SimulatedDisplay
    private let virtualClock: VirtualClock
    /// The display's vsync before the loop went uncapped, given back after.
    private var vsyncBeforeUncapped: Bool?
    /// How long after a frame reaches the glass its report arrives; nil for
    /// at once, as the present's own result.
    public let feedbackDelay: Nanoseconds?
    /// Reports not yet delivered: (ticket, glass time).
    private var inFlight: [(ticket: Int, glass: Nanoseconds)] = []
    private var nextTicket = 0
    /// When set, the backend judges variable refresh as a real one does: it
    /// paces for it only once the glass times show it
    /// (``VariableRefreshTracker``); nil trusts the display's own word.
    public var variableRefresh: VariableRefreshTracker?
    /// Whether a compositor in front of a fixed display holds each present
    /// to a given moment (Wayland's commit-timing, with fifo): the presenter
    /// then hands each frame its moment and the present returns at once,
    /// the frame shown on the first vblank at or after its moment.
    public var holdsPresentsToMoments = false
    /// Whether a present returns as soon as it is submitted, as a Wayland
    /// client's does behind a compositor that shows the frame later, or a
    /// vsync swap that queues the frame for its vblank (Mesa's on X11, whose
    /// platform clock still tells that vblank: so without a `feedbackDelay`);
    /// false: it returns once the frame is on the glass.
    public var presentsReturnAtOnce = false

    /// A backend for `display`, on `clock`. With a `feedbackDelay` it behaves
    /// as a compositor does: a present tells only when it returned (taken as
    /// ``GlassTimeSource/inferred``, at the moment it was submitted), and when the frame reached the glass is
    /// reported through ``glassFeedback()`` that long after it did.
    public init(display: SimulatedDisplay, clock: VirtualClock = VirtualClock(), feedbackDelay: Nanoseconds? = nil) {
        self.display = display
        self.virtualClock = clock
        self.feedbackDelay = feedbackDelay
    }

    /// The virtual clock.
    public var clock: FrameClock { virtualClock }

    /// The display's timing at the current virtual time; with a tracker,
    /// variable only while the tracker has seen it in effect.
    public func currentTiming() -> DisplayTiming {
        let timing = display.timing(at: virtualClock.now)
        guard let variableRefresh, display.vsync else { return timing }
        if let range = variableRefresh.rangeInEffect { return .variable(minimum: range.minimum, maximum: range.maximum) }
        if case .variable = timing { return .fixed(display.fixedGrid) }
        return timing
    }

    /// The three states of variable refresh, with a tracker.
    public var variableRefreshState: VRRState? { variableRefresh?.state }

    /// Advances virtual time by `duration`, all of it CPU time.
    public func doWork(_ duration: Nanoseconds) {
        virtualClock.advance(by: max(0, duration))
        cpuTime += max(0, duration)
    }

    /// With ``measuresCPU``, the CPU time of the scripted work so far (a
    /// virtual wait costs none); else nil, as a backend with no CPU clock.
    public var threadCPUTime: Nanoseconds? { measuresCPU ? cpuTime : nil }
    /// Whether frames carry a ``FrameCPU`` (see ``threadCPUTime``).
    public var measuresCPU = false
    private var cpuTime: Nanoseconds = 0

    /// Jumps to `deadline` (a virtual wait is exact).
    public func wait(until deadline: Nanoseconds) {
        virtualClock.sleep(until: deadline)
    }

    /// Turns the simulated display's vsync off while uncapped, as a driver
    /// would, and back to what it was after.
    public func uncappedChanged(to uncapped: Bool) {
        if uncapped {
            vsyncBeforeUncapped = display.vsync
            display.vsync = false
        } else if let vsync = vsyncBeforeUncapped {
            display.vsync = vsync
            vsyncBeforeUncapped = nil
        }
    }

    /// Presents now; returns once the frame is on the glass.
    public func present() -> PresentOutcome {
        let submitted = virtualClock.now
        let shown = display.present(at: submitted)
        if !presentsReturnAtOnce { virtualClock.sleep(until: shown) }
        return outcome(submitted: submitted, shown: shown)
    }

    /// With ``holdsPresentsToMoments``, on a fixed display.
    public func holdsPresents(on timing: DisplayTiming) -> Bool {
        guard holdsPresentsToMoments, case .fixed = timing else { return false }
        return true
    }

    /// Presents now, held to `moment`: returns at once.
    public func present(notBefore moment: Nanoseconds) -> PresentOutcome {
        let submitted = virtualClock.now
        return outcome(submitted: submitted, shown: display.present(at: max(submitted, moment)))
    }

    /// What a present submitted at `submitted` and shown at `shown` tells.
    private func outcome(submitted: Nanoseconds, shown: Nanoseconds) -> PresentOutcome {
        variableRefresh?.noteGlass(at: shown, grid: display.fixedGrid)
        guard feedbackDelay != nil else {
            return PresentOutcome(shownAt: shown, tracedAt: presentsReturnAtOnce ? submitted : shown)
        }
        nextTicket += 1
        inFlight.append((nextTicket, shown))
        // Until the report comes, the record knows only when the present
        // went out; the presenter plans on the display's grid meanwhile.
        // A present that returns at once knows only that it returned, as a
        // Wayland client's on a compositor that repaints on demand does.
        return PresentOutcome(shownAt: presentsReturnAtOnce ? submitted : shown, tracedAt: submitted,
                              glassSource: .inferred, feedbackTicket: nextTicket)
    }

    /// With per-frame reports the backend stands for a compositor's client: a
    /// frame for a vblank is presented just after the vblank before (see
    /// `PresentPlan/compositedVsyncLead(period:)`); otherwise half a refresh.
    public func vsyncLead(on timing: DisplayTiming) -> Nanoseconds? {
        guard feedbackDelay != nil, case .fixed(let grid) = timing else { return nil }
        return PresentPlan.compositedVsyncLead(period: grid.rate.period)
    }

    /// The reports due by now: those of frames on the glass at least ``feedbackDelay`` ago.
    public func glassFeedback() -> [GlassFeedback] {
        guard let feedbackDelay else { return [] }
        let due = inFlight.prefix { virtualClock.now - $0.glass >= feedbackDelay }
        inFlight.removeFirst(due.count)
        return due.map { GlassFeedback(ticket: $0.ticket, glassTime: $0.glass) }
    }
}
