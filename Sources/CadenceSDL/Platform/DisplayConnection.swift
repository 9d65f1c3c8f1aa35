#if canImport(Glibc)
import Glibc
#endif
import CWaylandPresentation

/// A window's connection to its display server, asked whether it still
/// holds. On native Wayland SDL goes on after the compositor is gone (its
/// present may even spin for ever, see `PresentWatchdog`); this reads the
/// connection's error state, which libwayland guards with a lock, so any
/// thread may ask. On X11 a lost server never gets this far: Xlib ends the
/// process from its I/O error handler.
@_spi(Programs) public struct DisplayConnection: Sendable {
    /// SDL's `wl_display`, nil on X11 and offscreen.
    nonisolated(unsafe) private let waylandDisplay: OpaquePointer?

    /// The connection `window` is shown through.
    public init(window: Window) {
        waylandDisplay = cadence_wl_display_of(window.handle)
    }

    /// What was lost, e.g. "the Wayland compositor at WAYLAND_DISPLAY=wayland-0
    /// went away"; nil while the connection holds.
    public var lost: String? {
        guard cadence_wl_display_lost(waylandDisplay) != 0 else { return nil }
        let name = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? ""
        return "the Wayland compositor" + (name.isEmpty ? "" : " at WAYLAND_DISPLAY=\(name)") + " went away"
    }
}
