#if canImport(Glibc)
import Glibc
#endif
import CXPresentClock
import Cadence

/// The C watcher of a window's X Present clock (`Sources/CXPresentClock`) as
/// a ``VblankTickSource``: on an X connection of its own, so SDL's connection
/// and event queue are untouched.
final class XPresentWatcher: VblankTickSource {
    private let watcher: OpaquePointer
    /// Whether the X server is XWayland.
    let isXWayland: Bool

    /// Watches `window`'s Present clock; nil when SDL does not run it on X11
    /// or the X server has no Present extension.
    init?(window: Window) {
        let x11Window = cadence_sdl_x11_window(window.handle)
        guard x11Window != 0, let watcher = cadence_present_clock_open(nil, x11Window) else { return nil }
        self.watcher = watcher
        // XWayland before 23.1 has no XWAYLAND extension to ask; a Wayland
        // session (WAYLAND_DISPLAY set for a client SDL runs on X11) says it then.
        let waylandSession = getenv("WAYLAND_DISPLAY").map { $0.pointee != 0 } ?? false
        isXWayland = cadence_present_clock_is_xwayland(watcher) != 0 || waylandSession
    }

    deinit { cadence_present_clock_close(watcher) }

    /// The answers since the last read, the latest two at most (two only
    /// where the first questions, asked when the watcher opened, were answered at once).
    func readTicks() -> [VblankTick]? {
        var msc: [UInt64] = [0, 0], ust: [UInt64] = [0, 0]
        let count = Int(cadence_present_clock_poll(watcher, &msc, &ust, 2))
        if count < 0 { return nil }
        return (0..<count).map {
            VblankTick(counter: Int64(truncatingIfNeeded: msc[$0]), time: Nanoseconds(truncatingIfNeeded: ust[$0]) * 1_000)
        }
    }
}
