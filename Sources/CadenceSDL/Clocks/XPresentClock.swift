@_spi(Programs) import Cadence

/// The display's clock on X11, from the X Present extension: the vblank
/// counter (MSC) and its time (UST) of the game's window, read through a
/// `VblankTickSource` (in a game, `XPresentWatcher`).
///
/// On Xorg with a GPU driver that is the kernel's vblank; on Xvfb a fake clock
/// (60 Hz, or `-fakescreenfps N`). Through XWayland it is XWayland's own
/// clock, not the compositor's: ``isXWayland`` says so, and the backend then
/// names its clock as estimated. A clock that does not tick (no time, a
/// stuck counter, no answer: ``ClockAbsence``) is named absent at its second
/// answer (half a second where it does not answer), and the frames are paced
/// on the stand-in until it ticks.
@_spi(Programs) public final class XPresentClock {
    private let ticks: any VblankTickSource
    private var fit = VblankCounterFit()
    private var held = HeldGrid()
    private var watch = TickWatch(since: 0)
    /// The grid the ticks lie on, as of the last read; nil until a few
    /// have arrived, while the clock is absent, and once the connection broke.
    public private(set) var grid: VsyncGrid?
    /// Whether the X server is XWayland.
    public let isXWayland: Bool
    /// Whether the connection broke (the X server went away).
    public private(set) var isBroken = false
    /// Why the clock does not tick, once seen; nil while it may.
    public private(set) var absence: ClockAbsence?
    /// The clock the backend paces on until the ticks give a grid.
    private var standIn = PresentReturnClock(nominal: nil, since: 0, throttledByCompositor: false)

    /// Watches `window`'s Present clock; nil when SDL does not run it on X11
    /// or the X server has no Present extension.
    public convenience init?(window: Window) {
        guard let watcher = XPresentWatcher(window: window) else { return nil }
        self.init(ticks: watcher, isXWayland: watcher.isXWayland)
    }

    /// A clock on `ticks`; `isXWayland` when they are XWayland's own.
    init(ticks: any VblankTickSource, isXWayland: Bool) {
        self.ticks = ticks
        self.isXWayland = isXWayland
    }

    /// Reads the ticks that arrived by `now`, without blocking, and fits
    /// ``grid`` to them: the fit anchored on the newest tick, held while it
    /// agrees (``HeldGrid``).
    func read(at now: Nanoseconds) {
        guard !isBroken else { return }
        guard let arrived = ticks.readTicks() else {
            isBroken = true
            grid = nil
            return
        }
        watch.note(arrived, at: now)
        for tick in arrived where tick.time > 0 { fit.add(counter: tick.counter, time: tick.time) }
        absence = watch.absence(at: now)
        grid = absence == nil ? held.use(fit.grid()) : nil
    }

    /// Starts over for a new display or mode, on `standIn` until the ticks
    /// give a grid, and reads the answers already there: those the watcher
    /// waited for when it opened name a clock that stands still before the
    /// first frame is planned.
    func startMode(standIn: PresentReturnClock) {
        fit.reset()
        held.reset()
        watch = watch.restarted(since: standIn.since)
        grid = nil
        absence = nil
        self.standIn = standIn
        read(at: standIn.since)
    }
}

/// The X Present clock as the backend's display clock: its vblanks are
/// measured (XWayland's: estimated, as its clock is not the compositor's),
/// and a frame is shown at the first of them after its present returned.
extension XPresentClock: DisplayClock {
    var timing: DisplayTiming { grid.map { .fixed($0) } ?? standIn.timing }
    var isProvisional: Bool { grid == nil && !isBroken && absence == nil }
    var note: TimingNote? { grid == nil ? standIn.note : nil }
    var source: DisplayClockSource {
        guard grid != nil else { return standIn.source }
        return isXWayland ? .xwaylandPresent : .xPresent
    }

    /// On the measured clock its vblanks are measured, not estimated, and a
    /// present (under Xvfb a copy of 3–8 ms, on vkms under emulation up to
    /// 130 ms) must end before the vblank it is meant for, so it goes just
    /// after the vblank before (`PresentPlan.measuredVsyncLead(period:)`).
    /// XWayland's clock: half a refresh. The stand-in's otherwise.
    func vsyncLead(period: Nanoseconds) -> Nanoseconds? {
        guard grid != nil else { return standIn.vsyncLead(period: period) }
        return isXWayland ? nil : PresentPlan.measuredVsyncLead(period: period)
    }

    func presented(submittedAt submitted: Nanoseconds, returnedAt returned: Nanoseconds) -> GlassEstimate {
        read(at: returned)
        guard let grid else { return standIn.presented(submittedAt: submitted, returnedAt: returned) }
        return .firstVblank(of: grid, after: returned, source: isXWayland ? .estimated : .vblank)
    }
}
