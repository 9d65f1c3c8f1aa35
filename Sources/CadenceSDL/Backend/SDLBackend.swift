import CSDL2
import Cadence

/// The frame loop's real-time backend: an SDL renderer, the monotonic clock,
/// and an estimate of where the display's vblanks are.
///
/// It reports what the display can do honestly:
/// - vsync on, and presents really wait for the vblank: `.fixed`, on the vblank
///   grid estimated from present-return times (SDL's integer refresh rate is
///   refined from the measured period);
/// - variable refresh in effect (per the detector's decision): `.variable`;
/// - vsync off, or vsync "on" but presents return at once (Xvfb, the offscreen
///   driver, some compositors; never SDL's Wayland driver, which holds each
///   present until the compositor showed the one before: `PresentBlockingCheck`):
///   `.unsynced`, paced by the timer alone, with ``timingNote`` saying why.
public final class SDLBackend: FrameBackend, ScriptedWork {
    /// The renderer presenting the frames.
    public let renderer: Renderer
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
    public private(set) var timingNote: TimingNote?
    /// Where the display's clock comes from, for the overlay and the trace.
    public private(set) var clockSource = DisplayClockSource.presentReturns

    /// The X Present clock of the window, where SDL runs it on X11.
    private let presentClock: XPresentClock?
    /// The compositor's presentation feedback, where SDL runs the window on Wayland.
    private let presentationClock: WaylandPresentationClock?

    private let waitUntil: (Nanoseconds) -> Void
    private var reportedRate: FrameRate?
    private var estimator: VsyncEstimator?
    private var blocking: PresentBlockingCheck
    private var modeChangedAt: Nanoseconds = 0
    /// The vsync mode before the loop went uncapped, given back after.
    private var vsyncBeforeUncapped: VSyncMode?

    /// Whether low latency asks for the real-time scheduling class (see
    /// ``latencyChanged(to:)``); read when the loop next switches to low latency.
    public var raisesPriorityForLowLatency = true
    /// Whether this backend put the loop's thread in the real-time class, as
    /// the overlay reports it.
    public private(set) var raisedPriority = false

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
        blocking = PresentBlockingCheck(throttledByCompositor: Self.throttledByCompositor(renderer))
        displayModeChanged(refreshHz: refreshHz)
    }

    /// Starts over after the display or its mode changed (or vsync was toggled):
    /// the old vblank estimate no longer holds.
    public func displayModeChanged(refreshHz: Int) {
        reportedRate = refreshHz > 0 ? FrameRate(hz: Double(refreshHz)) : nil
        tracker.update(decision: tracker.decision, modeRate: reportedRate)
        estimator = reportedRate.map { VsyncEstimator(nominal: $0) }
        presentClock?.reset()
        blocking = PresentBlockingCheck(throttledByCompositor: blocking.throttledByCompositor)
        modeChangedAt = clock.now
    }

    /// The detector's decision for the window's display (see ``WindowDisplay``):
    /// variable refresh is paced for once requested there and seen in effect.
    public func variableRefreshDecided(_ decision: VRRDecision?) {
        tracker.update(decision: decision, modeRate: reportedRate)
    }

    /// What the display can do now.
    public func currentTiming() -> DisplayTiming {
        if let vrr = variableRefresh, renderer.vsync != .off {
            timingNote = nil
            return .variable(minimum: vrr.minimum, maximum: vrr.maximum)
        }
        guard renderer.vsync != .off else {
            timingNote = vsyncBeforeUncapped == nil ? .vsyncOff : .uncapped
            return .unsynced(reported: reportedRate)
        }
        if let grid = platformGrid() {
            timingNote = nil
            return .fixed(grid)
        }
        if clockSource == .waylandPresentation, let presentationClock, !presentationClock.isVsynced {
            timingNote = .compositorRepaintsOnDemand
            return .unsynced(reported: presentationClock.refreshRate ?? reportedRate)
        }
        guard let nominal = reportedRate else {
            timingNote = .refreshRateUnknown
            return .unsynced(reported: nil)
        }
        guard blocking.presentsBlock else {
            timingNote = .presentsDoNotWaitForVblank
            return .unsynced(reported: estimator?.measuredRate ?? nominal)
        }
        timingNote = nil
        return .fixed(estimator?.grid ?? nominalGrid(nominal))
    }

    /// Until the estimate exists (or where presents never wait for the
    /// display, so none is made), a grid at the nominal rate through the mode
    /// change: the same grid however often asked, so the link's cadence keeps
    /// its slots. Through the last present instead, it would move with the
    /// loop's own presents.
    private func nominalGrid(_ nominal: FrameRate) -> VsyncGrid {
        VsyncGrid(origin: modeChangedAt, rate: nominal)
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

    /// With low latency, asks for the real-time scheduling class for the
    /// loop's thread (see ``RealTimeScheduling``) where the process may have
    /// one and ``raisesPriorityForLowLatency``; back in the normal class with
    /// smooth latency. A thread already in a real-time class is left as it is.
    ///
    /// A just-in-time frame starts only its predicted cost and a safety before
    /// its target, so losing the core for a few milliseconds in the middle of
    /// it (the kernel's own threads do that on a busy machine) makes it late;
    /// in the real-time class nothing in the normal class can take the core
    /// from it. Measured with `Scripts/bench latency --explore` on a shared
    /// 2-core machine: several times fewer late frames than in the normal class.
    public func latencyChanged(to latency: FrameLatency) {
        if latency == .low, raisesPriorityForLowLatency, !RealTimeScheduling.isInEffect {
            raisedPriority = RealTimeScheduling.request()
        } else if latency == .smooth, raisedPriority {
            RealTimeScheduling.release()
            raisedPriority = false
        }
    }

    /// With the X Present clock, three quarters of a refresh: the vblanks are
    /// measured, not estimated, and a present (under Xvfb, a copy of 3–8 ms)
    /// must end before the vblank it is meant for, so it goes early in the
    /// refresh before, a quarter refresh after the previous vblank for the
    /// fitted clock's own jitter. With the compositor's presentation feedback,
    /// just after the vblank before (`PresentPlan.compositedVsyncLead(period:)`):
    /// the compositor composites its frame up to a refresh before the vblank.
    /// Otherwise half a refresh.
    public func vsyncLead(on timing: DisplayTiming) -> Nanoseconds? {
        guard case .fixed(let grid) = timing else { return nil }
        switch clockSource {
        case .xPresent: return grid.rate.period * 3 / 4
        case .waylandPresentation: return PresentPlan.compositedVsyncLead(period: grid.rate.period)
        default: return nil
        }
    }

    /// Turns vsync off while the loop is uncapped, so presents do not wait
    /// for the vblank, and gives back the mode it had after (unless the
    /// player chose another meanwhile); the vblank estimate starts over.
    public func uncappedChanged(to uncapped: Bool) {
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

    /// Presents. The frame is taken as shown at the first vblank of the
    /// platform's clock after the present returned (X Present: measured;
    /// XWayland's clock: estimated), at the estimated vblank nearest that
    /// moment, or at that moment without vsync (inferred). On native Wayland
    /// the compositor reports the frame's real time later, through
    /// ``glassFeedback()``.
    public func present() -> PresentOutcome {
        let before = clock.now
        let ticket = presentationClock?.willPresent()
        renderer.present()
        let returned = clock.now
        if let grid = platformGrid() {
            // The frame reaches the glass at the first vblank after its copy ended.
            return PresentOutcome(shownAt: grid.time(at: grid.index(atOrAfter: returned)), tracedAt: returned,
                                  glassSource: clockSource.isMeasured ? .vblank : .estimated, feedbackTicket: ticket)
        }
        // A compositor that repaints on demand paces nothing: the frame is taken
        // as shown when presented, as the timer paces it, until its report comes.
        let repaintsOnDemand = clockSource == .waylandPresentation && presentationClock?.isVsynced == false
        guard renderer.vsync != .off, variableRefresh == nil, !repaintsOnDemand, var estimator else {
            return PresentOutcome(shownAt: returned, tracedAt: returned, glassSource: .inferred, feedbackTicket: ticket)
        }
        estimator.addPresent(submittedAt: before, returnedAt: returned)
        self.estimator = estimator
        blocking.note(blocked: returned - before, period: estimator.nominal.period)
        guard blocking.presentsBlock else {
            return PresentOutcome(shownAt: returned, tracedAt: returned, glassSource: .inferred, feedbackTicket: ticket)
        }
        // A present that waited returned on the vblank that showed a frame: its
        // own, or where the compositor throttles presents (SDL on Wayland waits
        // for the previous frame's callback, then commits) the one before, so
        // its own is shown on the next. One that did not wait is shown at the
        // first vblank after it.
        let grid = estimator.grid ?? nominalGrid(estimator.nominal)
        let shownIndex = !estimator.waitedForDisplay(blocked: returned - before) ? grid.index(atOrAfter: returned)
            : grid.nearestIndex(to: returned) + (blocking.throttledByCompositor ? 1 : 0)
        let shown = grid.time(at: shownIndex)
        return PresentOutcome(shownAt: shown, tracedAt: returned, glassSource: .estimated, feedbackTicket: ticket)
    }

    /// The compositor's reports of when frames reached the glass (native
    /// Wayland's `wp_presentation`), read without blocking. They are the only
    /// glass times of a frame's own that tell variable refresh in effect: on
    /// X11 a frame is placed on the Present clock's vblank grid, on it by
    /// construction, so nothing there is judged (see ``variableRefreshState``).
    public func glassFeedback() -> [GlassFeedback] {
        let reports = presentationClock?.takeReports() ?? []
        for case let glass? in reports.map(\.glassTime) { tracker.noteGlass(at: glass) }
        return reports
    }

    /// The vblank grid from the X Present clock: vsync on, no variable
    /// refresh. Through XWayland that clock is XWayland's own, which follows
    /// the compositor's frame callbacks and is named as an estimate; it still
    /// beats a fit to present returns, which on a compositor that repaints on
    /// its own timer do not land on any grid. Names the clock's source.
    private func platformGrid() -> VsyncGrid? {
        guard renderer.vsync != .off, variableRefresh == nil else {
            clockSource = .timer
            return nil
        }
        if let presentationClock, !presentationClock.isBroken {
            let grid = presentationClock.grid()
            clockSource = grid != nil || !presentationClock.isVsynced ? .waylandPresentation : .presentReturns
            return presentationClock.isVsynced ? grid : nil
        }
        guard let presentClock, !presentClock.isBroken else {
            clockSource = .presentReturns
            return nil
        }
        guard let grid = presentClock.grid(nominal: nil) else {
            clockSource = .presentReturns
            return nil
        }
        clockSource = presentClock.isXWayland ? .xwaylandPresent : .xPresent
        return grid
    }

    /// Whether SDL holds each present until the compositor showed the one
    /// before: its Wayland driver does with vsync on a GL renderer (it waits for
    /// the previous frame's callback); the software renderer's window surface does not.
    private static func throttledByCompositor(_ renderer: Renderer) -> Bool {
        !renderer.isSoftware && SDL_GetCurrentVideoDriver().map { String(cString: $0) } == "wayland"
    }
}
