#if canImport(Glibc)
import Glibc
#endif
import CSDL2

/// SDL's process-wide video and event state, initialised once for the program.
///
/// SDL is global: there is one session per process, and every SDL call belongs on
/// the thread that created it (the main thread). Keep the session alive for as
/// long as any window exists; `shutdown()` quits SDL.
@_spi(Programs) public final class SDLSession {
    /// The video driver SDL chose (`x11`, `wayland`, `offscreen`, `dummy`, ...).
    public let videoDriver: String
    /// What the player should know about how the driver was chosen (a
    /// compositor that did not answer, X11 used instead); empty when nothing.
    public internal(set) var notes: [String] = []

    /// Initialises SDL video and events, optionally forcing a video driver.
    ///
    /// - Parameter driver: `"offscreen"` for headless rendering (no display server
    ///   needed), `"dummy"` for no output at all, or nil to let SDL choose from
    ///   `SDL_VIDEODRIVER` and the environment.
    public init(videoDriver driver: String? = nil) throws {
        if let driver {
            // Over the environment too: SDL_VIDEODRIVER set but empty would
            // otherwise have SDL try every driver, Wayland's among them.
            SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, driver, SDL_HINT_OVERRIDE)
        } else if (processEnvironment()["SDL_VIDEODRIVER"] ?? "").isEmpty, !WaylandSocket.displayCanExist {
            // Left to itself SDL tries every driver in turn, Wayland among them,
            // whose connection attempt prints libwayland's complaint about
            // XDG_RUNTIME_DIR before the program can say what is wrong. Where no
            // Wayland display can exist, SDL tries the others in its own order.
            SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, Self.driversOtherThanWayland, SDL_HINT_OVERRIDE)
        }
        if driver == "offscreen" {
            // Offscreen has EGL, so SDL would show the software renderer's window
            // surface through a hidden OpenGL texture drawn by Mesa's swrast: a
            // copy costing ~10 ms at 720p on every present. Headless needs no
            // such copy; the plain framebuffer makes a present nearly free.
            SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        }
        // A game loop wants the compositor left alone and the screensaver off.
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        try DisplayConnection.guardingStartUp { try check(SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS), "SDL_Init") }
        DisplayConnection.videoStarted()
        videoDriver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
    }

    /// SDL's video drivers in the order it tries them, Wayland left out, as
    /// the comma-separated list `SDL_HINT_VIDEODRIVER` accepts.
    private static var driversOtherThanWayland: String {
        (0..<SDL_GetNumVideoDrivers()).compactMap { SDL_GetVideoDriver($0).map { String(cString: $0) } }
            .filter { $0 != "wayland" }
            .joined(separator: ",")
    }

    /// Whether windows can be seen: SDL did not fall back to a driver that
    /// shows nothing (offscreen, dummy), unless `SDL_VIDEODRIVER` asked for it.
    /// A window nobody can see is not what a player launching a game wants.
    public var showsWindows: Bool {
        let requested = !(processEnvironment()["SDL_VIDEODRIVER"] ?? "").isEmpty
        return requested || !["offscreen", "dummy"].contains(videoDriver)
    }

    /// The SDL library version linked at run time, e.g. `2.26.5`.
    public static var linkedVersion: String {
        var v = SDL_version()
        SDL_GetVersion(&v)
        return "\(v.major).\(v.minor).\(v.patch)"
    }

    /// Whether the SDL 2 API runs on SDL 3 (sdl2-compat, as Debian testing
    /// ships it as libsdl2): SDL 3 is then loaded in the process. Its version
    /// alone does not tell (sdl2-compat reports 2.32.x, as SDL 2.32 does).
    public static var runsOnSDL3: Bool {
        guard let handle = dlopen("libSDL3.so.0", RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }

    /// Quits SDL; call once, after every window and renderer is gone.
    /// Bounded (`TeardownBound`): the process ends if it does not return.
    public func shutdown() {
        TeardownBound.run {
            GameControllers.closeAll()
            AudioDevice.close()
            DisplayConnection.videoStopping()
            SDL_Quit()
        }
    }
}

/// SDL's own timer, for code that must compare against the common limiter.
@_spi(Programs) public enum SDLTimer {
    /// `SDL_Delay(ms)`: sleeps at least `ms` milliseconds (millisecond granularity).
    public static func delay(milliseconds ms: UInt32) {
        SDL_Delay(ms)
    }
}
