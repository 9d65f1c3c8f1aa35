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
    private var held: VsyncGrid?
    /// Whether the X server is XWayland.
    public let isXWayland: Bool
    /// Whether the connection broke (the X server went away).
    public private(set) var isBroken = false

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

    /// Reads the ticks that arrived and returns the grid they lie on (nil
    /// until a few have), `nominal` as its `nominalRate`.
    public func grid(nominal: FrameRate?) -> VsyncGrid? {
        var msc: UInt64 = 0, ust: UInt64 = 0
        let ticks = cadence_present_clock_poll(watcher, &msc, &ust)
        if ticks < 0 {
            isBroken = true
        } else if ticks > 0 {
            fit.add(counter: Int64(truncatingIfNeeded: msc), time: Nanoseconds(truncatingIfNeeded: ust) * 1_000)
        }
        guard let fresh = fit.grid(nominal: nominal) else { return nil }
        // A refit moves the phase by microseconds every tick; a grid that moved
        // would put a frame planned on the old one a whole vblank later. The
        // grid in use is kept while it stays within a tolerance of the fit now.
        if let held, abs(held.time(at: held.nearestIndex(to: fresh.origin)) - fresh.origin) <= Self.phaseTolerance {
            return held
        }
        held = fresh
        return fresh
    }

    /// How far the grid in use may be from the latest fit before it is replaced.
    static let phaseTolerance: Nanoseconds = 250_000

    /// Starts the fit over: the display or its mode changed.
    public func reset() {
        fit.reset()
        held = nil
    }
}
