import CSDL2
@_spi(Programs) import Cadence

/// The frame loop's real-time backend: an SDL renderer, the monotonic clock,
/// and one display clock that knows where the display's vblanks are.
///
/// The clock is chosen when the backend is made and whenever the display or
/// its mode changes: with vsync off or variable refresh in effect, the timer;
/// else the platform's own clock (X Present's MSC/UST on X11, the compositor's
/// presentation feedback on Wayland) where there is one, standing on a grid
/// fitted to present returns until it knows its own; else that fit alone,
/// which hands the pacing to the timer where presents are seen not to wait
/// for the vblank (``timingNote`` then says why). The clock reads the platform
/// once a frame, right after the present returns.
@_spi(Programs) public final class SDLBackend: FrameBackend, ScriptedWork {
    /// The renderer presenting the frames.
    public let renderer: Renderer
    /// What the next frame waited on a display that stopped answering.
    var waits = DisplayWaits()
    /// Wall-clock time, monotonic.
    public let clock: FrameClock
    /// Whether variable refresh is requested by the detector's decision and
    /// seen in effect in the frames' measured glass times.
    private var tracker = VariableRefreshTracker()
    /// The variable refresh range in effect (requested, and measured off the
    /// fixed grid): what the loop paces in; nil for the fixed grid.
    public var variableRefresh: (minimum: FrameRate, maximum: FrameRate)? { tracker.rangeInEffect }
    /// Variable refresh's three states and their evidence, for the trace and the overlay.
    public var variableRefreshState: VRRState? { tracker.state }
    /// Why the timing is what it is, for the overlay (nil when vsync works as asked).
    public var timingNote: TimingNote? { displayClock.note }
    /// Where the display's clock comes from, for the overlay and the trace.
    public var clockSource: DisplayClockSource { displayClock.source }
    /// The clock in words: its source, and why the platform's own clock is
    /// not used where it was found not to tick ("estimated from present
    /// returns (X Present gives no time: UST 0)").
    public var clockDescription: String {
        displayClock.absence.map { "\(clockSource.rawValue) (\($0))" } ?? clockSource.rawValue
    }

    /// The X Present clock of the window, where SDL runs it on X11.
    private let presentClock: XPresentClock?
    /// The compositor's presentation feedback, where SDL runs the window on Wayland.
    private let presentationClock: WaylandPresentationClock?
    /// Whether SDL holds presents to the compositor's frame callbacks (see ``PresentBlockingCheck``).
    let throttledByCompositor: Bool
    /// The clock in use: one of the two above, or one of its own.
    private(set) var displayClock: any DisplayClock
    /// Whether a present on the clock in use waited for its own grid (see `SDLBackend+OwnGrid.swift`).
    var ownGridAwaited = false
    /// What the compositor offers to time commits, on native Wayland (see `SDLBackend+TimedCommits.swift`).
    let timedCommits: TimedCommits?
    /// Whether frames are held to their moment by the compositor where it can; off by default (see `SDLBackend+TimedCommits.swift`).
    public var holdsPresentsAtCompositor = false

    private let waitUntil: (Nanoseconds) -> Void
    private(set) var reportedRate: FrameRate?
    /// The vsync mode before the loop went uncapped, given back after.
    private var vsyncBeforeUncapped: VSyncMode?

    /// When the loop's thread asks for the real-time scheduling class, and what it was granted.
    public let scheduling = LoopScheduling()
    /// Whether low latency asks for the real-time scheduling class (see
    /// ``latencyChanged(to:)``); read when the loop next switches to low latency.
    public var raisesPriorityForLowLatency: Bool {
        get { scheduling.raisesForLowLatency }
        set { scheduling.raisesForLowLatency = newValue }
    }
    /// Whether this backend put the loop's thread in the real-time class, as
    /// the overlay reports it.
    public var raisedPriority: Bool { scheduling.grant != .normal }

    /// The display link's `jitterTolerance` for this backend:
    /// present returns, and so the times frames are taken as shown, jitter by
    /// up to a few hundred microseconds around the vblank, so a slot closer
    /// than this to the reference time counts as passed.
    public static let jitterTolerance: Nanoseconds = 200_000

    /// A backend for `renderer`.
    ///
    /// - Parameters:
    ///   - renderer: the renderer whose presents the backend times.
    ///   - clock: the clock every time is measured on (monotonic in a game).
    ///   - refreshHz: the display mode's rate from SDL; 0 when unknown.
    ///   - wait: how to wait for a deadline (a precise sleeper in a game).
    public init(renderer: Renderer, clock: FrameClock, refreshHz: Int,
                wait: @escaping (Nanoseconds) -> Void) {
        self.renderer = renderer
        self.clock = clock
        self.waitUntil = wait
        presentClock = XPresentClock(window: renderer.window)
        presentationClock = presentClock == nil ? WaylandPresentationClock(window: renderer.window) : nil
        throttledByCompositor = Self.throttledByCompositor(renderer)
        timedCommits = presentationClock == nil ? nil : TimedCommits(window: renderer.window)
        displayClock = TimerClock(vsync: false, variable: nil, reported: nil, uncapped: false)
        displayModeChanged(refreshHz: refreshHz)
    }

    /// Starts over after the display or its mode changed (or vsync was
    /// toggled): the old vblanks no longer hold, and the clock is chosen again.
    public func displayModeChanged(refreshHz: Int) {
        displayChanged(refreshHz: refreshHz, decision: tracker.decision)
    }

    /// The window's display as ``WindowDisplay`` last read it: its mode's rate
    /// and the detector's decision, under which variable refresh is paced for
    /// once requested and seen in effect. Starts over as a mode change does.
    func displayChanged(refreshHz: Int, decision: VRRDecision?) {
        reportedRate = refreshHz > 0 ? FrameRate(hz: Double(refreshHz)) : nil
        tracker.update(decision: decision, modeRate: reportedRate)
        chooseClock()
    }

    /// Changes what the tracker knows; where that turns variable refresh on or
    /// off, the clock is chosen again (a timer in it, a vblank clock out of it).
    private func trackingVariableRefresh(_ change: (inout VariableRefreshTracker) -> Void) {
        let before = variableRefresh.map { [$0.minimum, $0.maximum] }
        change(&tracker)
        if variableRefresh.map({ [$0.minimum, $0.maximum] }) != before { chooseClock() }
    }

    /// The clock for the display as it is now (see the type's notes and ``ClockChoice``).
    private func chooseClock() {
        let choice = ClockChoice.choose(vsync: renderer.vsync != .off, variableRefresh: variableRefresh != nil,
                                        waylandFeedback: presentationClock.map { !$0.isBroken } ?? false,
                                        xPresent: presentClock.map { !$0.isBroken } ?? false)
        let returns = PresentReturnClock(nominal: reportedRate, since: clock.now,
                                         throttledByCompositor: throttledByCompositor)
        ownGridAwaited = false
        switch choice {
        case .timer:
            displayClock = TimerClock(vsync: renderer.vsync != .off, variable: variableRefresh, reported: reportedRate,
                                      uncapped: vsyncBeforeUncapped != nil, reports: presentationClock)
        case .waylandPresentation:
            presentationClock!.startMode(standIn: returns)
            displayClock = presentationClock!
        case .xPresent:
            presentClock!.startMode(standIn: returns)
            displayClock = presentClock!
        case .presentReturns:
            displayClock = returns
        }
    }

    /// What the display can do, as the clock last read it: asking changes nothing.
    public func currentTiming() -> DisplayTiming { displayClock.timing }

    /// Runs the drawing SDL batched for the frame (the loop calls it after the frame callback):
    /// the software renderer takes milliseconds to rasterise it.
    public func flush() {
        waits.time(on: clock) { renderer.flush() }
    }

    /// Burns `duration` of real CPU time: scripted game work.
    public func doWork(_ duration: Nanoseconds) {
        let end = clock.now + duration
        var sink = 0
        while clock.now < end { sink &+= 1 }
        _ = sink
    }

    /// Waits for `deadline` with the injected waiter.
    public func wait(until deadline: Nanoseconds) {
        waitUntil(deadline)
    }

    /// Sleeps on the clock until `deadline`, without spinning.
    public func sleep(until deadline: Nanoseconds) {
        clock.sleep(until: deadline)
    }

    /// The calling (loop's) thread's CPU time.
    public var threadCPUTime: Nanoseconds? { ThreadCPUClock.now() }

    /// With low latency, asks for the real-time scheduling class for the
    /// loop's thread (see `RealTimeScheduling`) where the process may have
    /// one and ``raisesPriorityForLowLatency``; back in the normal class with
    /// smooth latency unless the paced loop holds it (``LoopScheduling``). A
    /// thread already in a real-time class is left as it is.
    ///
    /// A just-in-time frame starts only its predicted cost and a safety before
    /// its target, so losing the core for milliseconds in it (the kernel's
    /// threads do that on a busy machine) makes it late; in the real-time
    /// class nothing in the normal class takes the core from it (`Scripts/bench
    /// latency --explore`, a shared 2-core machine: several times fewer late).
    public func latencyChanged(to latency: FrameLatency) {
        scheduling.latencyChanged(to: latency)
    }

    /// How long before its vblank a frame is presented: the clock's choice
    /// (`DisplayClock.vsyncLead(period:)`: just after the vblank before on X
    /// Present's measured vblanks, behind a compositor and on a grid fitted to
    /// unthrottled present returns, half a refresh otherwise); none on a
    /// stand-in grid, whose phase may be off by any part of a refresh: the
    /// frame goes out at its target, a refresh late at worst, never early.
    public func vsyncLead(on timing: DisplayTiming) -> Nanoseconds? {
        guard case .fixed(let grid) = timing else { return nil }
        if displayClock.isProvisional { return 0 }
        return displayClock.vsyncLead(period: grid.rate.period)
    }

    /// Turns vsync off while the loop is uncapped, so presents do not wait
    /// for the vblank, and gives back the mode it had after (unless the
    /// player chose another meanwhile); the vblank estimate starts over.
    public func uncappedChanged(to uncapped: Bool) {
        scheduling.uncappedChanged(to: uncapped)
        if uncapped {
            vsyncBeforeUncapped = renderer.vsync
            renderer.setVSync(.off)
        } else if let vsync = vsyncBeforeUncapped {
            vsyncBeforeUncapped = nil
            if renderer.vsync == .off { renderer.setVSync(vsync) }
        }
        displayModeChanged(refreshHz: reportedRate.map { Int($0.hz.rounded()) } ?? 0)
    }

    /// Blocks in SDL's event queue until an event arrives or `timeout` passes.
    public func waitForEvents(timeout: Nanoseconds) {
        EventPump.wait(timeout: timeout)
    }

    /// Presents, then asks the clock (which reads the platform now, once a
    /// frame) when the frame reaches the glass and how that is known: the first
    /// vblank of the platform's clock after the present returned (X Present:
    /// measured; XWayland's: estimated), the vblank of the grid fitted to
    /// present returns, or the moment it returned without vsync (inferred).
    /// Natively on Wayland the compositor's report comes later (``glassFeedback()``).
    public func present() -> PresentOutcome {
        let ticket = displayClock.willPresent()
        let submitted = clock.now
        renderer.present()
        let returned = clock.now
        let glass = displayClock.presented(submittedAt: submitted, returnedAt: returned)
        awaitOwnGrid(after: returned)
        return PresentOutcome(shownAt: glass.time, tracedAt: returned, glassSource: glass.source, feedbackTicket: ticket,
                              displayWait: waits.take(adding: returned - submitted))
    }

    /// The compositor's reports of when frames reached the glass (native
    /// Wayland's `wp_presentation`), as the last present's read brought them.
    /// They alone tell variable refresh in effect: on X11 a frame is placed
    /// on the Present clock's vblank grid, so nothing there is judged.
    public func glassFeedback() -> [GlassFeedback] {
        let reports = displayClock.takeReports()
        trackingVariableRefresh { tracker in
            for case let glass? in reports.map(\.glassTime) { tracker.noteGlass(at: glass) }
        }
        return reports
    }
}
