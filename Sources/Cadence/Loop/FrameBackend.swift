/// Where frames go: the simulated display, or an SDL window.
///
/// The ``FrameLoop`` is the same for both; only these operations differ.
/// The simulator answers them in virtual time, the SDL backend in real time.
@_spi(Programs) public protocol FrameBackend: AnyObject {
    /// The clock everything is measured on.
    var clock: FrameClock { get }

    /// What the display can do now (refresh, VRR in effect, vsync).
    func currentTiming() -> DisplayTiming

    /// Runs the drawing the game's callback queued, right after it, so the
    /// drawing counts as the frame's work and the present at the target is
    /// only the swap (a renderer that batches its drawing until the present,
    /// as SDL's does, would otherwise rasterise inside it).
    func flush()

    /// Waits until `deadline` as precisely as the backend can.
    func wait(until deadline: Nanoseconds)

    /// Waits until `deadline` where a little lateness costs nothing (with
    /// vsync, the present waits for its vblank anyway): as cheaply as the
    /// backend can, a plain sleep in real time, never before `deadline`.
    func sleep(until deadline: Nanoseconds)

    /// The loop thread's CPU time so far, in ns (``ThreadCPUClock`` in real
    /// time), from which each frame's ``FrameCPU`` is measured; nil where the
    /// backend has no such clock.
    var threadCPUTime: Nanoseconds? { get }

    /// Presents the frame just drawn, once: below a variable-refresh panel's
    /// range the display's driver shows it again by itself (see
    /// `LowFramerateCompensation`).
    func present() -> PresentOutcome

    /// Blocks until an input or window event arrives or `timeout` passes,
    /// without spinning: what a paused game does.
    func waitForEvents(timeout: Nanoseconds)

    /// The loop's ``FrameLatency`` changed: called on the loop's thread before
    /// the first frame in the new mode, and with `.smooth` when the loop ends.
    /// A real-time backend may raise the thread's priority for just-in-time
    /// frames, whose work has no slack in which to lose the core.
    func latencyChanged(to latency: FrameLatency)

    /// The loop's limit became ``FrameRateLimit/uncapped`` (`true`) or left it
    /// (`false`): a backend that controls vsync turns it off, then gives back
    /// the mode it had, so that frames are not held to the vblanks.
    func uncappedChanged(to uncapped: Bool)

    /// With vsync on a fixed display, how long before its vblank a frame is
    /// presented (see `PresentPlan`); nil for half a refresh.
    func vsyncLead(on timing: DisplayTiming) -> Nanoseconds?

    /// The per-frame reports that arrived since the last call, without
    /// blocking: when frames whose ``PresentOutcome/feedbackTicket`` was set
    /// reached the glass. A compositor sends them a frame or two after the present.
    func glassFeedback() -> [GlassFeedback]

    /// Variable refresh's three states and their evidence now (see
    /// ``VariableRefreshTracker``), for the trace and the overlay; nil where
    /// the backend does not judge them.
    var variableRefreshState: VRRState? { get }

    /// Whether the platform itself holds a present until a given moment
    /// (Wayland's commit-timing, with fifo so that none is dropped): the
    /// presenter then presents each frame as soon as its work ends, with the
    /// moment it is for (``present(notBefore:)``), instead of waiting for it.
    func holdsPresents(on timing: DisplayTiming) -> Bool

    /// Presents now, for the platform to show no sooner than `moment` (see
    /// ``holdsPresents(on:)``).
    func present(notBefore moment: Nanoseconds) -> PresentOutcome

    /// Whether the grid frames are paced on is a compositor's repaint timer
    /// rather than a display's vblanks (Weston 16's headless output reports
    /// no vsync flag, its times an even grid): how far behind it shows a frame
    /// depends on when the client caught its timer, not on the path, and
    /// drops from a refresh to none under load, so no path latency is learned
    /// there (a frame planned on one would be on the glass a refresh early).
    var gridIsRepaintTimer: Bool { get }
}

extension FrameBackend {
    /// Nothing is batched: nothing to do.
    public func flush() {}

    /// The precise wait: a backend whose waits cost nothing needs no other.
    public func sleep(until deadline: Nanoseconds) { wait(until: deadline) }

    /// No CPU clock: frames carry no ``FrameCPU``.
    public var threadCPUTime: Nanoseconds? { nil }

    /// In virtual time nothing can take the core: nothing to do.
    public func latencyChanged(to latency: FrameLatency) {}

    /// A backend with no say over vsync: the display paces as it does.
    public func uncappedChanged(to uncapped: Bool) {}

    /// Half a refresh: the middle of the window whose presents land on the vblank.
    public func vsyncLead(on timing: DisplayTiming) -> Nanoseconds? { nil }

    /// Nothing judged.
    public var variableRefreshState: VRRState? { nil }

    /// Vblanks, where there is a grid.
    public var gridIsRepaintTimer: Bool { false }

    /// Nothing holds a present but the presenter's own wait.
    public func holdsPresents(on timing: DisplayTiming) -> Bool { false }

    /// A plain ``present()``: never asked where nothing holds presents.
    public func present(notBefore moment: Nanoseconds) -> PresentOutcome { present() }

    /// No per-frame reports: every outcome's glass time is final.
    public func glassFeedback() -> [GlassFeedback] { [] }

    /// With no event source (the simulator), just lets `timeout` pass.
    public func waitForEvents(timeout: Nanoseconds) {
        wait(until: clock.now + timeout)
    }
}

/// What is known once a present has gone out.
@_spi(Programs) public struct PresentOutcome: Equatable, Sendable {
    /// The vblank (or moment) the frame reached the glass, as well as the
    /// backend can tell: exact in simulation, estimated in real time.
    public let shownAt: Nanoseconds
    /// The time the trace records as `present_time`: on-glass in simulation,
    /// the measured time right after present returned in real time.
    public let tracedAt: Nanoseconds
    /// Where `shownAt` comes from.
    public let glassSource: GlassTimeSource
    /// Set when the platform will report this frame's glass time later (see
    /// ``FrameBackend/glassFeedback()``): the ticket that report will carry.
    public let feedbackTicket: Int?
    /// Set when the display stopped answering (its server stopped, or grabbed
    /// by another client) and the frame waited for it, how long: the frame
    /// is a pause (``FrameRecord/displayWait``), which the loop learns nothing from.
    public let displayWait: Nanoseconds?

    /// An outcome; in simulation both times are the on-glass time, reported by the display.
    public init(shownAt: Nanoseconds, tracedAt: Nanoseconds, glassSource: GlassTimeSource = .feedback,
                feedbackTicket: Int? = nil, displayWait: Nanoseconds? = nil) {
        self.shownAt = shownAt
        self.tracedAt = tracedAt
        self.glassSource = glassSource
        self.feedbackTicket = feedbackTicket
        self.displayWait = displayWait
    }
}

/// The platform's report of when one presented frame reached the glass.
@_spi(Programs) public struct GlassFeedback: Equatable, Sendable {
    /// The ``PresentOutcome/feedbackTicket`` of the frame.
    public let ticket: Int
    /// When it reached the glass; nil when the compositor discarded it (never shown).
    public let glassTime: Nanoseconds?

    /// A report for the frame with `ticket`.
    public init(ticket: Int, glassTime: Nanoseconds?) {
        self.ticket = ticket
        self.glassTime = glassTime
    }
}
