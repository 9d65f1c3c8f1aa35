#if canImport(Glibc)
import Glibc
#endif
import CXPresentClock
import Cadence

/// The display's clock on X11, from the X Present extension: the vblank
/// counter (MSC) and its time (UST) of the game's window, read on an X
/// connection of its own (see `Sources/CXPresentClock`), so SDL's connection
/// and event queue are untouched.
///
/// On Xorg with a GPU driver that is the kernel's vblank; on Xvfb a fake clock
/// (60 Hz, or `-fakescreenfps N`). Through XWayland it is XWayland's own
/// clock, not the compositor's: ``isXWayland`` says so, and the backend then
/// names its clock as estimated.
package final class XPresentClock {
    private let watcher: OpaquePointer
    private var fit = VblankCounterFit()
    private var held = HeldGrid()
    /// The grid the ticks lie on, as of the last ``poll()``; nil until a few
    /// have arrived, and once the connection broke.
    public private(set) var grid: VsyncGrid?
    /// Whether the X server is XWayland.
    public let isXWayland: Bool
    /// Whether the connection broke (the X server went away).
    public private(set) var isBroken = false
    /// The clock the backend paces on until the ticks give a grid.
    private var standIn = PresentReturnClock(nominal: nil, since: 0, throttledByCompositor: false)

    /// Watches `window`'s Present clock; nil when SDL does not run it on X11
    /// or the X server has no Present extension.
    public init?(window: Window) {
        let x11Window = cadence_sdl_x11_window(window.handle)
        guard x11Window != 0, let watcher = cadence_present_clock_open(nil, x11Window) else {
            return nil
        }
        self.watcher = watcher
        // XWayland before 23.1 has no XWAYLAND extension to ask; a Wayland
        // session (WAYLAND_DISPLAY set for a client SDL runs on X11) says it then.
        let waylandSession = getenv("WAYLAND_DISPLAY").map { $0.pointee != 0 } ?? false
        isXWayland = cadence_present_clock_is_xwayland(watcher) != 0 || waylandSession
    }

    deinit { cadence_present_clock_close(watcher) }

    /// Reads the ticks that arrived, without blocking, and fits ``grid`` to them.
    public func poll() {
        guard !isBroken else { return }
        var msc: UInt64 = 0, ust: UInt64 = 0
        let ticks = cadence_present_clock_poll(watcher, &msc, &ust)
        if ticks < 0 {
            isBroken = true
            grid = nil
            return
        }
        if ticks > 0 {
            fit.add(counter: Int64(truncatingIfNeeded: msc), time: Nanoseconds(truncatingIfNeeded: ust) * 1_000)
        }
        grid = held.use(fit.grid())
    }

    /// Starts over for a new display or mode, on `standIn` until the ticks give a grid.
    func startMode(standIn: PresentReturnClock) {
        fit.reset()
        held.reset()
        grid = nil
        self.standIn = standIn
    }
}

/// The X Present clock as the backend's display clock: its vblanks are
/// measured (XWayland's: estimated, as its clock is not the compositor's),
/// and a frame is shown at the first of them after its present returned.
extension XPresentClock: DisplayClock {
    var timing: DisplayTiming { grid.map { .fixed($0) } ?? standIn.timing }
    var isProvisional: Bool { grid == nil && !isBroken }
    var note: TimingNote? { grid == nil ? standIn.note : nil }
    var source: DisplayClockSource {
        guard grid != nil else { return standIn.source }
        return isXWayland ? .xwaylandPresent : .xPresent
    }

    func presented(submittedAt submitted: Nanoseconds, returnedAt returned: Nanoseconds) -> GlassEstimate {
        poll()
        guard let grid else { return standIn.presented(submittedAt: submitted, returnedAt: returned) }
        return .firstVblank(of: grid, after: returned, source: isXWayland ? .estimated : .vblank)
    }
}
