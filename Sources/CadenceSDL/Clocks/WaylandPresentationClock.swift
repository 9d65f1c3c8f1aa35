@_spi(Programs) import Cadence

/// The display's clock on native Wayland, from the compositor's
/// `wp_presentation` feedback: for every frame, when it reached the screen,
/// the output's vblank counter and its refresh interval, read through a
/// `FrameFeedbackSource` (in a game, `WaylandPresentationWatcher`).
@_spi(Programs) public final class WaylandPresentationClock {
    private let feedback: any FrameFeedbackSource
    private var fit = VblankCounterFit()
    private var estimator: VsyncEstimator?
    private var held = HeldGrid()
    private var latest: (time: Nanoseconds, refresh: Nanoseconds)?
    /// The output's vblank grid as of the last ``poll()``; nil until known.
    public private(set) var grid: VsyncGrid?
    /// Whether the latest frame was shown on a vblank (the feedback's vsync
    /// flag). A compositor without it (Mutter's headless virtual monitor)
    /// repaints on demand, unless its reports lie on an even grid
    /// (`showsOnEvenGrid`): no vblank grid, and frames are paced at the
    /// timer's slots, a frame shown later reported late (`PathLatency`).
    public private(set) var isVsynced = true
    /// Whether the reports, with no vsync flag, lie on an even grid at the
    /// refresh the compositor states (Weston 16's headless output: its repaint
    /// timer, flags 0, times a whole number of refreshes apart to the
    /// nanosecond, while Mutter's completions scatter by tenths of a
    /// millisecond): a compositor that shows frames on its own vblanks, a
    /// grid to pace on. Seen after ``evenRun`` even intervals in a row, lost
    /// after two uneven ones (a timer restarted at each commit); a single one
    /// is the timer restarted once, at a new phase, which the grid takes.
    private(set) var showsOnEvenGrid = false
    private var evenIntervals = 0
    private var unevenIntervals = 0
    /// How many even intervals in a row show a grid.
    static let evenRun = 4
    /// How far from a whole number of refreshes an even interval may be:
    /// Weston's are within nanoseconds, Mutter's scatter by 20 µs and more.
    static let evenTolerance: Nanoseconds = 5_000
    /// Whether the connection broke (the compositor went away).
    public private(set) var isBroken = false
    /// The clock the backend paces on until the feedback gives a grid.
    private(set) var standIn = PresentReturnClock(nominal: nil, since: 0, throttledByCompositor: false)

    /// Watches `window`; nil when SDL does not run it on Wayland or the
    /// compositor does not offer presentation-time on CLOCK_MONOTONIC or
    /// CLOCK_MONOTONIC_RAW (Weston's software-timed outputs; converted to CLOCK_MONOTONIC).
    public convenience init?(window: Window) {
        guard let watcher = WaylandPresentationWatcher(window: window) else { return nil }
        self.init(feedback: watcher)
    }

    /// A clock on `feedback`.
    init(feedback: any FrameFeedbackSource) {
        self.feedback = feedback
    }

    /// Asks for the next frame's feedback: call right before presenting it.
    /// Returns the ticket its report will carry, nil when none was asked.
    public func willPresent() -> Int? { feedback.requestFeedback() }

    /// The per-frame reports the polls brought: when each frame reached the
    /// glass (nil for one the compositor discarded).
    public func takeReports() -> [GlassFeedback] { feedback.takeReports() }

    /// How many frames the compositor discarded (never showed).
    public var discardedFrames: Int { feedback.discardedFrames }

    /// The output's refresh interval as a rate, once feedback gave one.
    public var refreshRate: FrameRate? {
        latest.flatMap { $0.refresh > 0 ? FrameRate(period: $0.refresh) : nil }
    }

    /// Reads the feedback that arrived, without blocking, and fits ``grid``:
    /// the presentation times fitted to a grid at the refresh interval the
    /// compositor gives (`VsyncEstimator`: a headless output's repaints
    /// jitter by milliseconds around its timer, and its sequence may count only
    /// the repaints it made, as Mutter's virtual monitor's does), else fitted
    /// to (sequence, time); held while the newest fit agrees (`HeldGrid`).
    public func poll() {
        guard !isBroken else { return }
        guard let ticks = feedback.readTicks() else {
            isBroken = true
            grid = nil
            return
        }
        for tick in ticks { add(tick) }
        let stated = latest.flatMap { latest in
            latest.refresh > 0 ? VsyncGrid(origin: latest.time, rate: FrameRate(period: latest.refresh), measured: true) : nil
        }
        // An even grid is exact: its newest report is a vblank (and a timer
        // restarted at a new phase is followed at once).
        grid = held.use((showsOnEvenGrid && !isVsynced ? stated : nil) ?? estimator?.grid ?? stated ?? fit.grid(),
                        newest: latest?.time)
    }

    private func add(_ tick: VblankTick) {
        if let previous = latest, tick.refresh > 0, !tick.vsynced {
            let gap = tick.time - previous.time
            let refreshes = (gap + tick.refresh / 2) / tick.refresh
            if refreshes >= 1 && abs(gap - refreshes * tick.refresh) <= Self.evenTolerance {
                (evenIntervals, unevenIntervals) = (evenIntervals + 1, 0)
            } else {
                (evenIntervals, unevenIntervals) = (0, unevenIntervals + 1)
            }
            if evenIntervals >= Self.evenRun { showsOnEvenGrid = true }
            if unevenIntervals >= 2 { showsOnEvenGrid = false }
        }
        latest = (tick.time, tick.refresh)
        isVsynced = tick.vsynced
        if tick.counter > 0 { fit.add(counter: tick.counter, time: tick.time) }
        guard tick.refresh > 0 else { return }
        if estimator?.nominal.period != tick.refresh {
            estimator = VsyncEstimator(nominal: FrameRate(period: tick.refresh))
        }
        estimator?.addPresent(at: tick.time)
    }

    /// A new display or mode: what the old one's feedback taught is
    /// forgotten, and the backend is on `standIn` until the feedback gives a grid.
    func startMode(standIn: PresentReturnClock) {
        fit.reset()
        estimator = nil
        held.reset()
        latest = nil
        (showsOnEvenGrid, evenIntervals, unevenIntervals) = (false, 0, 0)
        grid = nil
        isVsynced = true
        self.standIn = standIn
    }
}

/// The compositor's presentation feedback as the backend's display clock:
/// the output's vblanks are measured, a frame is taken as shown at the first
/// after its present returned until the compositor reports its real time,
/// and an output that repaints on demand leaves the pacing to the timer.
extension WaylandPresentationClock: DisplayClock {
    /// A compositor that repaints on demand, as the feedback says.
    /// Flagless reports on an even grid: Weston's repaint timer, not vblanks.
    var gridIsRepaintTimer: Bool { showsOnEvenGrid && !isVsynced }
    private var repaintsOnDemand: Bool { !isBroken && !isVsynced && !showsOnEvenGrid }
    /// The grid to pace on: the output's, where it repaints on vblanks.
    private var vblanks: VsyncGrid? { isVsynced || showsOnEvenGrid ? grid : nil }

    var timing: DisplayTiming {
        if let vblanks { return .fixed(vblanks) }
        if repaintsOnDemand { return .unsynced(reported: refreshRate ?? standIn.nominal) }
        return standIn.timing
    }

    var isProvisional: Bool { vblanks == nil && !isBroken && !repaintsOnDemand }

    func read(at now: Nanoseconds) { poll() }

    var note: TimingNote? {
        if vblanks != nil { return nil }
        return repaintsOnDemand ? .compositorRepaintsOnDemand : standIn.note
    }

    var source: DisplayClockSource {
        vblanks != nil || repaintsOnDemand ? .waylandPresentation : standIn.source
    }

    /// Just after the vblank before (`PresentPlan.compositedVsyncLead(period:)`):
    /// the compositor composites its frame up to a refresh before the vblank.
    func vsyncLead(period: Nanoseconds) -> Nanoseconds? {
        vblanks != nil ? PresentPlan.compositedVsyncLead(period: period) : standIn.vsyncLead(period: period)
    }

    func presented(submittedAt submitted: Nanoseconds, returnedAt returned: Nanoseconds) -> GlassEstimate {
        poll()
        if let vblanks { return .firstVblank(of: vblanks, after: returned, source: .vblank) }
        // Shown when presented, as the timer paces it, until its report comes.
        if repaintsOnDemand { return .inferred(returned) }
        return standIn.presented(submittedAt: submitted, returnedAt: returned)
    }
}
