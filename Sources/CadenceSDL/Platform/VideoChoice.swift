#if canImport(Glibc)
import Glibc
#endif
import CWaylandPresentation

/// Which of SDL's video drivers a game asks for on a Linux desktop.
///
/// SDL 2 picks X11 first, so on a Wayland session a game runs through XWayland,
/// whose Present clock is its own and not the compositor's. `auto` runs
/// natively where that works and gives the display's real clock: a compositor
/// that offers `wp_presentation` and a `wl_seat` (SDL 2.26's Wayland driver
/// does not start on Weston 10's headless output, which has none), and SDL's
/// Wayland driver then starting; X11 otherwise.
public enum VideoChoice: String, CaseIterable, Sendable {
    /// Native Wayland where it works, X11 (XWayland on a Wayland session) otherwise.
    case auto
    /// SDL's Wayland driver, or fail.
    case wayland
    /// SDL's X11 driver (XWayland on a Wayland session), or fail.
    case x11

    /// What the compositor behind `WAYLAND_DISPLAY` said when asked.
    private enum Probe {
        /// None is reachable (or none can exist, see ``WaylandSocket``).
        case absent
        /// The socket accepted but nothing answered within a second (a
        /// compositor hung or stopped, or not a compositor): counted as absent,
        /// since SDL's own connection would wait for it for ever.
        case silent
        case offers(presentation: Bool, seat: Bool)
    }

    private static func probe() -> Probe {
        guard WaylandSocket.displayCanExist else { return .absent }
        var presentation: Int32 = 0, seat: Int32 = 0
        switch cadence_wl_probe(&presentation, &seat) {
        case 0: return .offers(presentation: presentation != 0, seat: seat != 0)
        case -2:
            // A compositor killed as the probe connected may hold its socket a moment longer: gone by now, it is absent.
            if let path = WaylandSocket.path, cadence_server_listening(path) == 0 { return .absent }
            return .silent
        default: return .absent
        }
    }

    /// Why SDL's Wayland driver cannot start on the compositor, nil when it
    /// may. SDL 2.26's reads a seat it never got where the compositor offers
    /// none (Weston's headless output) and the process dies in SDL_Init; SDL 3
    /// under sdl2-compat starts there. With a silent compositor either waits
    /// for ever: a game refuses first, with words.
    private static func waylandCannotStart() -> String? {
        switch probe() {
        case .offers(_, false) where !SDLSession.runsOnSDL3:
            "the Wayland compositor at WAYLAND_DISPLAY offers no wl_seat, without which SDL's Wayland driver cannot start"
        case .silent: silentCompositor
        default: nil
        }
    }

    /// The compositor named, for messages.
    private static var silentCompositor: String {
        let name = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? ""
        return "the Wayland compositor at WAYLAND_DISPLAY=\(name.isEmpty ? "wayland-0" : name) did not answer within a second"
    }

    /// Starts SDL with the driver this choice asks for. For `auto`, the
    /// driver `SDL_VIDEODRIVER` names if set (Wayland refused there as for
    /// `wayland`, with words, where it cannot start); else Wayland when the compositor
    /// suits it and SDL's Wayland driver starts; else X11, with a note in the
    /// session's ``SDLSession/notes`` when a compositor was there but silent.
    @_spi(Programs) public func openSession() throws -> SDLSession {
        switch self {
        case .wayland:
            if let why = Self.waylandCannotStart() {
                throw UnsuitableCompositor(description: "\(why); use X11 (XWayland)")
            }
            return try SDLSession(videoDriver: "wayland")
        case .x11: return try SDLSession(videoDriver: "x11")
        case .auto:
            // A driver named in SDL_VIDEODRIVER is the user's choice: SDL follows it,
            // Wayland checked first as for `wayland`.
            if let named = getenv("SDL_VIDEODRIVER"), named.pointee != 0 {
                if String(cString: named) == "wayland", let why = Self.waylandCannotStart() {
                    throw UnsuitableCompositor(description: "\(why), and SDL_VIDEODRIVER=wayland asks for it: "
                                               + "unset SDL_VIDEODRIVER, or set it to x11 (XWayland)")
                }
                return try SDLSession()
            }
            let probe = Self.probe()
            if case .offers(true, let seat) = probe, seat || SDLSession.runsOnSDL3,
               let session = try? SDLSession(videoDriver: "wayland") {
                return session
            }
            let session = try SDLSession(videoDriver: "x11")
            if case .silent = probe { session.notes.append("\(Self.silentCompositor): using X11") }
            return session
        }
    }
}

/// The compositor is there but cannot run the driver asked for: not a missing
/// display, so a game says this rather than "no display server".
public struct UnsuitableCompositor: Error, CustomStringConvertible, Sendable {
    /// What it lacks, and what to use instead.
    public let description: String
}
