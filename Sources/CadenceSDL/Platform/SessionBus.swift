#if canImport(Glibc)
import Glibc
#endif

/// The desktop's D-Bus session bus, settled before SDL starts.
///
/// SDL asks the session bus for the screensaver's inhibition, input methods
/// and the system theme. Where the desktop names none (no
/// `DBUS_SESSION_BUS_ADDRESS`, no socket at `$XDG_RUNTIME_DIR/bus`: a
/// compositor started without one), libdbus falls back to "autolaunch": it
/// forks the game to exec `dbus-launch` for a bus of the game's own, on which
/// nothing serves a game. Under SDL 3.4 (sdl2-compat) on Weston 16 and KWin
/// 6.7, on a loaded machine, starts that forked so sometimes had SDL's wait
/// for the window's first configure cut short (`poll` failing with EINTR),
/// which SDL takes for a lost connection ("Wayland display connection closed
/// by server (fatal)"); the window is then never configured and the game
/// waits for ever (7 of some 1,300 starts; none of 690 with autolaunch off,
/// see `docs/desktops.md`). The address is set to `disabled:` for the
/// process there, an address no libdbus transport accepts (GLib's D-Bus reads
/// it as "no bus"): SDL's calls fail at once, as on a missing bus, and nothing
/// is forked.
enum SessionBus {
    /// The value that turns autolaunch off.
    static let disabled = "disabled:"

    /// Whether libdbus would autolaunch a bus under `environment`: it names
    /// none, and no socket is at `$XDG_RUNTIME_DIR/bus` (where a login
    /// session's bus listens, and libdbus looks first).
    static func wouldAutolaunch(in environment: [String: String]) -> Bool {
        guard (environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty else { return false }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return true }
        var status = stat()
        return stat(runtime + "/bus", &status) != 0 || status.st_mode & S_IFMT != S_IFSOCK
    }

    /// Sets `DBUS_SESSION_BUS_ADDRESS` to ``disabled`` for the process where
    /// libdbus would autolaunch. Call before `SDL_Init`.
    static func disableAutolaunchWhereNone() {
        if wouldAutolaunch(in: processEnvironment()) { setenv("DBUS_SESSION_BUS_ADDRESS", disabled, 1) }
    }
}
