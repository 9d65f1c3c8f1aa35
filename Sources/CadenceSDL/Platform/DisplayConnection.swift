#if canImport(Glibc)
import Glibc
#endif
import CSDL2
import CWaylandPresentation
import Synchronization

/// A program's connection to its display server, asked whether it still
/// holds, from the moment SDL's video is up. On native Wayland SDL goes on
/// after the compositor is gone and may spin for ever inside a call (see
/// `PresentWatchdog`); on X11, Mesa may crash on the broken connection before
/// Xlib ends the process from its I/O error handler. This reads the
/// connection's socket for a hang-up, without reading from it, and the error
/// state libwayland keeps (a fatal error the socket does not show: one read
/// on SDL's side, or a close still to come) from when SDL hands out its
/// `wl_display`, so any thread may ask.
@_spi(Programs) public final class DisplayConnection: Sendable {
    /// SDL's `wl_display`: SDL 3's from the start, SDL 2's once a window
    /// exists; nil before that, on X11 and offscreen.
    nonisolated(unsafe) private let waylandDisplay: OpaquePointer?
    /// The server's listening socket, and SDL's connection to it (its
    /// descriptor and inode); nil offscreen, or for an X server over TCP.
    private let socket: (path: String, fd: Int32, inode: UInt)?
    /// What was lost, decided once.
    private let verdict = Mutex<String?>(nil)
    /// Which start of SDL's video `waylandDisplay` belongs to.
    private let videoRun: Int
    /// How many times SDL's video started, and whether it runs: SDL frees its
    /// `wl_display` when its video stops (``SDLSession/shutdown()``), while a
    /// watchdog may still be asking, so the display is read under this lock,
    /// and only while the video it came from runs; the socket is asked always.
    private static let video = Mutex<(run: Int, running: Bool)>((0, false))
    /// How long a compositor that closed the connection may take to stop
    /// listening before it counts as still running: one shutting down closes
    /// its clients a moment before its listening socket.
    static let shutdownGrace: Duration = .milliseconds(300)

    /// SDL's connection as soon as `session` is up, before any window: the
    /// socket SDL connected to the compositor (or the X server) with, and
    /// SDL 3's `wl_display`.
    public convenience init(session: SDLSession) {
        let display = session.videoDriver == "wayland" ? cadence_wl_display_of_sdl3_video() : nil
        self.init(waylandDisplay: display, driver: session.videoDriver)
    }

    /// The connection `window` is shown through.
    public convenience init(window: Window) {
        let display = cadence_wl_display_of(window.handle)
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        self.init(waylandDisplay: display, driver: display != nil ? "wayland" : driver)
    }

    private init(waylandDisplay: OpaquePointer?, driver: String) {
        self.waylandDisplay = waylandDisplay
        videoRun = Self.video.withLock { $0.run }
        isWayland = driver == "wayland"
        server = driver == "wayland" ? Self.compositor : "the X server at DISPLAY=\(Self.variable("DISPLAY"))"
        var inode: UInt = 0
        let path = driver == "wayland" ? WaylandSocket.path : driver == "x11" ? Self.xSocketPath : nil
        if let path {
            let fd = cadence_server_socket_find(path, &inode)
            socket = fd >= 0 ? (path, fd, inode) : nil
            // A connection whose server went away already has no peer to find it by.
            goneAtStart = fd < 0 && cadence_server_listening(path) == 0
        } else {
            socket = nil
            goneAtStart = false
        }
    }

    /// The local socket of the X server `DISPLAY` names (`:0`, `:0.1`,
    /// `unix:0`); nil for one reached over TCP.
    private static var xSocketPath: String? {
        var display = Substring(variable("DISPLAY"))
        if display.hasPrefix("unix:") { display = display.dropFirst(4) }
        guard display.hasPrefix(":"), let number = display.dropFirst().split(separator: ".").first.flatMap({ Int($0) })
        else { return nil }
        return "/tmp/.X11-unix/X\(number)"
    }

    private static func variable(_ name: String) -> String {
        getenv(name).map { String(cString: $0) } ?? ""
    }

    /// "the Wayland compositor at WAYLAND_DISPLAY=wayland-0".
    private static var compositor: String {
        let name = variable("WAYLAND_DISPLAY")
        return "the Wayland compositor" + (name.isEmpty ? "" : " at WAYLAND_DISPLAY=\(name)")
    }

    /// SDL's video started (after `SDL_Init`).
    static func videoStarted() {
        video.withLock { $0 = ($0.run + 1, true) }
    }

    /// SDL's video is about to stop (before `SDL_Quit`): its `wl_display` is read no more.
    static func videoStopping() {
        video.withLock { $0.running = false }
    }

    /// `body` on SDL's `wl_display` while the video it belongs to runs; nil otherwise.
    private func readingDisplay<Read: Sendable>(_ body: (OpaquePointer) -> Read) -> Read? {
        guard let waylandDisplay else { return nil }
        return Self.video.withLock { $0.running && $0.run == videoRun ? body(waylandDisplay) : nil }
    }

    /// The server, for messages.
    private let server: String
    /// Whether the server is a Wayland compositor (else an X server).
    private let isWayland: Bool
    /// Whether the server was gone by the time the connection was looked for.
    private let goneAtStart: Bool

    /// Runs `body` (SDL making a window and its renderer) with a fault on the
    /// broken connection turned into what it is: Mesa's GLX dereferences the
    /// reply an X server that went away never sent, and the game would die of
    /// a segmentation fault. A fault while the connection is closed ends the
    /// process with exit status 1, the server named; any other goes on as a crash.
    public func guardingFaults<Made>(_ body: () throws -> Made) rethrows -> Made {
        guard socket != nil || goneAtStart else { return try body() }
        cadence_fault_guard_begin(socket?.fd ?? -2, socket?.inode ?? 0,
                                  "\(ProgramExit.programName): \(server) went away while the window was being made "
                                  + "(the graphics driver crashed on the broken connection)\n")
        defer { cadence_fault_guard_end() }
        return try body()
    }

    /// Runs `body` (SDL starting its video, before any connection can be
    /// found) with a fault while the display server no longer listens turned
    /// into exit status 1 and a message: SDL 2.26 can crash inside its Wayland
    /// start-up on a compositor that went away in its first tenth of a second.
    public static func guardingStartUp<Made>(_ body: () throws -> Made) rethrows -> Made {
        // Only the servers there are now: one never started is not one that went away.
        let wayland = WaylandSocket.displayCanExist ? WaylandSocket.path : nil
        let x = xSocketPath.flatMap { cadence_server_listening($0) != 0 ? $0 : nil }
        guard wayland != nil || x != nil else { return try body() }
        cadence_fault_guard_begin_servers(wayland, x, "\(ProgramExit.programName): the display server went away "
                                          + "while SDL was starting (SDL crashed on the broken connection)\n")
        defer { cadence_fault_guard_end() }
        return try body()
    }

    /// Whether the connection broke: the compositor closed it (went away, or
    /// closed it on a protocol error), or libwayland found it broken.
    public var isBroken: Bool {
        if goneAtStart || (readingDisplay { cadence_wl_display_error($0) } ?? 0) != 0 { return true }
        guard let socket else { return false }
        return cadence_server_socket_closed(socket.fd, socket.inode) == 1
    }

    /// What was lost, e.g. "the Wayland compositor at WAYLAND_DISPLAY=wayland-0
    /// went away", or that it closed the connection on a protocol error; nil
    /// while the connection holds. Decided once, the first time it is asked
    /// after the break, which may take `shutdownGrace`.
    public var lost: String? {
        if let decided = verdict.withLock({ $0 }) { return decided }
        guard isBroken else { return nil }
        let decided = decide()
        verdict.withLock { $0 = $0 ?? decided }
        return verdict.withLock { $0 }
    }

    /// Whose fault the break was: a protocol error libwayland read, the
    /// compositor gone (no longer listening), or one that is still running.
    private func decide() -> String {
        var interface = [CChar](repeating: 0, count: 64)
        var object: UInt32 = 0
        let code = readingDisplay { cadence_wl_protocol_error($0, &interface, Int32(interface.count), &object) } ?? -1
        if code >= 0 {
            let which = String(decoding: interface.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return "\(server) closed the connection on a protocol error (\(which) error \(code) on object "
                + "\(object)); WAYLAND_DEBUG=client shows the exchange"
        }
        let failure = readingDisplay { cadence_wl_display_error($0) } ?? 0
        if failure != 0, failure != EPIPE, let socket, cadence_server_socket_closed(socket.fd, socket.inode) == 0 {
            return "the connection to \(server) broke on the game's side (libwayland: "
                + String(cString: strerror(failure)) + ")"
        }
        guard let path = socket?.path else { return "\(server) went away" }
        let clock = ContinuousClock()
        let deadline = clock.now + Self.shutdownGrace
        while cadence_server_listening(path) != 0 {
            guard clock.now < deadline else {
                return "\(server) closed the connection while still running"
                    + (isWayland ? " (a protocol error: WAYLAND_DEBUG=client shows the exchange)" : "")
            }
            usleep(20_000)
        }
        return "\(server) went away"
    }
}
