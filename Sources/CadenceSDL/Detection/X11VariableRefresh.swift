import CXPresentClock
@_spi(Programs) import Cadence

/// An X11 window's `_VARIABLE_REFRESH` property, what the X server's driver
/// needs at 1 before it runs a fullscreen window's CRTC at variable refresh:
/// read as the drivers read it, 32 bits, exactly one item, of any type.
/// Mesa sets it on GL windows (its `adaptive_sync` option, on by default);
/// SDL's software renderer draws without GL, so nothing sets it there.
enum X11VariableRefresh {
    /// The property of `window`; `.notX11` where SDL does not run it on X11.
    static func property(of window: Window) -> WindowVRRProperty {
        let x11Window = cadence_sdl_x11_window(window.handle)
        guard x11Window != 0 else { return .notX11 }
        var value: UInt32 = 0, format: UInt8 = 0, items: UInt32 = 0
        switch cadence_x11_variable_refresh(x11Window, &value, &format, &items) {
        case 1: return .value(value)
        case 2: return .ignored("\(items) item\(items == 1 ? "" : "s") of \(format) bits; the X driver reads one of 32")
        case 0: return .unset
        default: return .unreadable("the X server did not answer")
        }
    }
}
