import Foundation
import Testing

/// A private, headless Weston with XWayland: a real compositor whose repaint
/// clock paces presents, on a machine with no GPU and no screen.
///
/// Each instance is its own compositor: a private 0700 `XDG_RUNTIME_DIR`, its
/// own Wayland socket name, and the X display that Weston opens for XWayland
/// (read from Weston's log). SDL's x11 driver runs on that display; SDL 2.26's
/// native Wayland backend crashes in `SDL_Init` on headless Weston, so SDL is
/// kept off Wayland. ``stop()`` ends Weston by its process id only (Weston
/// then ends its XWayland), never by name, so other compositors are untouched.
final class WestonDesktop {
    /// The packages' executables; the tests skip, saying so, without them.
    static let westonPath = "/usr/bin/weston"
    static let xwaylandPath = "/usr/bin/Xwayland"

    /// Whether Weston and XWayland are installed.
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: westonPath)
            && FileManager.default.isExecutableFile(atPath: xwaylandPath)
    }

    /// Why a compositor test is skipped where the packages are missing.
    static let skipReason: Comment = """
        weston and xwayland are not installed (Scripts/setup installs the Debian packages weston and xwayland)
        """

    /// The X display XWayland listens on, e.g. `:1`.
    let display: String
    /// Weston's log, for the failure messages of a test that could not start it.
    let logPath: String
    private let process: Process
    private let runtimeDirectory: URL

    /// The compositor's output size: also the size of a fullscreen window.
    static let outputSize = (width: 1280, height: 720)

    /// Starts Weston and waits (up to `timeout` seconds) until it says which X display it opened.
    init(timeout: TimeInterval = 20) throws {
        try Self.ensureX11SocketDirectory()
        let id = UUID().uuidString.prefix(8)
        runtimeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-weston-\(id)")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        logPath = runtimeDirectory.appendingPathComponent("weston.log").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.westonPath)
        process.arguments = [
            "--backend=headless-backend.so", "--use-pixman",
            "--width=\(Self.outputSize.width)", "--height=\(Self.outputSize.height)",
            "--socket=cadence-\(id)", "--xwayland", "--idle-time=0", "--log=\(logPath)",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        // Weston on a display server would open a window there instead of running headless.
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "DISPLAY")
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()

        var found: String?
        let deadline = Date().addingTimeInterval(timeout)
        while found == nil && process.isRunning && Date() < deadline {
            usleep(50_000)
            found = Self.xDisplay(inLog: (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
        }
        guard let found else {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(no log)"
            let state = process.isRunning ? "did not open an X display within \(Int(timeout)) s" : "exited"
            Self.terminate(process)
            try? FileManager.default.removeItem(at: runtimeDirectory)
            throw WestonError("weston \(state); its log:\n\(log.suffix(3_000))")
        }
        display = found
    }

    deinit { stop() }

    /// The environment that puts an SDL program on this desktop through XWayland.
    var environment: [String: String] {
        ["DISPLAY": display, "SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": ""]
    }

    /// Whether Weston is still running (a crash under a client would end it).
    var isRunning: Bool { process.isRunning }

    /// Stops Weston by its process id and removes its private directory.
    func stop() {
        Self.terminate(process)
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }

    /// SIGTERM to `process` by its id, SIGKILL if it has not ended within 5 s.
    private static func terminate(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The display in Weston's "xserver listening on display :N" line, or nil.
    static func xDisplay(inLog log: String) -> String? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("xserver listening on display :") }),
              let colon = line.lastIndex(of: ":") else { return nil }
        let number = line[line.index(after: colon)...].prefix { $0.isNumber }
        return number.isEmpty ? nil : ":" + number
    }

    /// XWayland binds its socket in `/tmp/.X11-unix`, which only an X server
    /// that ran before creates; Weston fails without it. Created as X does: 1777.
    private static func ensureX11SocketDirectory() throws {
        let path = "/tmp/.X11-unix"
        guard !FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o1777])
        } catch where FileManager.default.fileExists(atPath: path) {
            // Another process created it meanwhile.
        }
    }
}

/// Weston could not be started.
struct WestonError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
