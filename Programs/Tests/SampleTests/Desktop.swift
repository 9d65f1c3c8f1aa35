import Foundation
import Testing

/// A private, headless desktop started by `Scripts/desktop`: Weston, Mutter or
/// KWin (each with XWayland), or Xvfb with its fake Present clock at 144 Hz.
///
/// Each instance is its own desktop: a private 0700 `XDG_RUNTIME_DIR`, its own
/// Wayland socket name, and the X display its XWayland (or Xvfb) opened. The
/// script runs the desktop in a process group of its own; ``stop()`` ends that
/// group by its id, never by name, so other people's compositors are untouched.
final class Desktop {
    /// The desktops the script knows, by the script's names.
    enum Kind: String, CaseIterable, CustomStringConvertible, Sendable {
        case weston, mutter, kwin, xvfb

        /// The executables the desktop needs; its tests skip, saying so, without them.
        var executables: [String] {
            switch self {
            case .weston: ["/usr/bin/weston", "/usr/bin/Xwayland"]
            case .mutter: ["/usr/bin/mutter", "/usr/bin/Xwayland", "/usr/bin/dbus-run-session"]
            case .kwin: ["/usr/bin/kwin_wayland", "/usr/bin/Xwayland", "/usr/bin/dbus-run-session"]
            case .xvfb: ["/usr/bin/Xvfb"]
            }
        }

        var isInstalled: Bool { executables.allSatisfy(FileManager.default.isExecutableFile(atPath:)) }

        var description: String { rawValue }
    }

    /// How an SDL program reaches the desktop.
    enum Path: String, CustomStringConvertible, Sendable {
        /// SDL's x11 driver: on XWayland, or on Xvfb.
        case x11
        /// SDL's Wayland driver, natively on the compositor.
        case wayland

        var description: String { rawValue }
    }

    /// Whether Weston and XWayland are installed (the compositor suite's desktop).
    static var isInstalled: Bool { Kind.weston.isInstalled }

    /// Why a compositor test is skipped where the packages are missing.
    static let skipReason: Comment = """
        weston and xwayland are not installed (Scripts/setup installs the Debian packages weston and xwayland)
        """

    /// The compositor's output size: also the size of a fullscreen window.
    static let outputSize = (width: 1280, height: 720)

    let kind: Kind
    /// What `Scripts/desktop` printed: `XDG_RUNTIME_DIR`, `WAYLAND_DISPLAY`, `DISPLAY`, maybe `XAUTHORITY`.
    let variables: [String: String]
    /// The X display of its XWayland (or Xvfb), e.g. `:1`.
    var display: String { variables["DISPLAY"] ?? "" }
    /// The desktop's log, fresh for each start: Weston's holds its timeline (`--logger-scopes=log,timeline`).
    let logPath: String
    /// The desktop's process group.
    private let group: pid_t
    private let runtimeDirectory: URL

    /// The repository's root, where `Scripts/desktop` lives.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Starts the desktop and waits until it says where its X display is;
    /// `options` go to its own command line (`-fakescreenfps 60` for Xvfb).
    init(_ kind: Kind = .weston, options: [String] = []) throws {
        self.kind = kind
        let id = UUID().uuidString.prefix(8)
        runtimeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-\(kind)-\(id)")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        let name = kind == .xvfb ? String(Self.freeDisplayNumber()) : "cadence-\(id)"
        // A desktop on a display server would open a window there instead of running headless.
        let started = try Subprocess.runExecutable(
            Self.repository.appendingPathComponent("Scripts/desktop").path, [kind.rawValue, name, runtimeDirectory.path] + options,
            environment: ["WAYLAND_DISPLAY": "", "DISPLAY": ""], timeout: 40)
        var variables: [String: String] = [:]
        for line in started.stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            variables[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard started.status == 0, let group = variables.removeValue(forKey: "PID").flatMap(pid_t.init) else {
            try? FileManager.default.removeItem(at: runtimeDirectory)
            throw DesktopError("\(kind) did not start (exit \(started.status)):\n\(started.stderr.suffix(3_000))")
        }
        logPath = variables.removeValue(forKey: "LOG") ?? ""
        self.variables = variables
        self.group = group
    }

    deinit { stop() }

    /// The environment that puts an SDL program on this desktop by `path`.
    func environment(_ path: Path = .x11) -> [String: String] {
        var environment = variables
        switch path {
        case .x11:
            // WAYLAND_DISPLAY stays, as in a player's Wayland session: it is how
            // the sample knows an older XWayland's Present clock is not the compositor's.
            environment["SDL_VIDEODRIVER"] = "x11"
        case .wayland:
            environment["SDL_VIDEODRIVER"] = "wayland"
            environment["DISPLAY"] = ""
        }
        return environment
    }

    /// The environment that puts an SDL program on this desktop through XWayland.
    var environment: [String: String] { environment(.x11) }

    /// Whether the desktop is still running (a crash under a client would end it).
    var isRunning: Bool { kill(group, 0) == 0 }

    /// The desktop's log as it stands.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The desktop's process group: SIGSTOP and SIGCONT to it starve it of
    /// CPU, as a busy machine does.
    var processGroup: pid_t { group }

    /// SIGTERM to the desktop's process group, SIGKILL if it has not ended
    /// within 5 s; then its private directory is removed.
    func stop() {
        let holder = Self.lockHolder(display.dropFirst())
        if kill(-group, SIGTERM) == 0 {
            let deadline = Date().addingTimeInterval(5)
            while kill(-group, 0) == 0 && Date() < deadline { usleep(20_000) }
            if kill(-group, 0) == 0 { kill(-group, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: runtimeDirectory)
        // Mutter stopped (or any desktop killed) leaves its X displays' locks and sockets (Mutter's
        // public one and its second): those its process held are removed once it is gone.
        guard let holder else { return }
        for _ in 0..<30 where kill(holder, 0) == 0 { usleep(100_000) }
        guard kill(holder, 0) != 0 else { return }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        where name.hasPrefix(".X") && name.hasSuffix("-lock") {
            let number = name.dropFirst(2).dropLast(5)
            guard Self.lockHolder(number) == holder else { continue }
            try? FileManager.default.removeItem(atPath: "/tmp/\(name)")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        }
    }

    /// The process that holds X display `number`'s lock (`/tmp/.X<number>-lock`), if any.
    private static func lockHolder(_ number: Substring) -> pid_t? {
        guard !number.isEmpty, let text = try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// SIGKILL to the desktop's process group: the compositor (and its
    /// XWayland) gone at once, as in a crash. ``stop()`` still cleans up.
    func killNow() {
        kill(-group, SIGKILL)
    }

    /// An X display number with no server on it, for Xvfb.
    private static func freeDisplayNumber() -> Int {
        let taken = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp/.X11-unix")) ?? [])
        // Random, so that tests starting desktops at once rarely pick the same number.
        let start = 200 + Int.random(in: 0..<500) * 10
        return (start..<start + 1_000).first { !taken.contains("X\($0)") && !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") } ?? start
    }
}

/// A desktop could not be started.
struct DesktopError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
