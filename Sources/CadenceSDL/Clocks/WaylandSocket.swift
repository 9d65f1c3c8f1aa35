#if canImport(Glibc)
import Glibc
#endif

/// Where a Wayland client would connect, found the way libwayland-client's
/// `wl_display_connect(NULL)` finds it, without connecting.
///
/// libwayland prints "error: XDG_RUNTIME_DIR is invalid or not set in the
/// environment." to stderr whenever a connection is tried without a runtime
/// directory, so a program that merely asks whether Wayland is there would
/// print a line that is not its own. Asking here first keeps the question silent.
enum WaylandSocket {
    /// Whether a Wayland display can exist for this process: a socket handed
    /// down in `WAYLAND_SOCKET`, or the socket `WAYLAND_DISPLAY` names (an
    /// absolute path, or a name in `XDG_RUNTIME_DIR`, `wayland-0` if unset) exists.
    static var displayCanExist: Bool {
        if nonEmpty("WAYLAND_SOCKET") != nil { return true }
        guard let path else { return false }
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFSOCK
    }

    /// The socket's path as `WAYLAND_DISPLAY` names it (an absolute path, or
    /// a name in `XDG_RUNTIME_DIR`, `wayland-0` if unset); nil without a
    /// runtime directory to find it in.
    static var path: String? {
        let name = nonEmpty("WAYLAND_DISPLAY") ?? "wayland-0"
        if name.hasPrefix("/") { return name }
        guard let runtime = nonEmpty("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") else { return nil }
        return runtime + "/" + name
    }

    private static func nonEmpty(_ variable: String) -> String? {
        guard let value = getenv(variable), value.pointee != 0 else { return nil }
        return String(cString: value)
    }
}
