import Foundation
import Testing

/// `Scripts/desktop` reports only a desktop of its own: a missing directory
/// or a taken display is refused with 66 and a message, never answered with
/// another server's display (one whose server is gone is taken over, as the
/// X server would); and a desktop it gives up on ends with it.
@Suite("Scripts/desktop refuses what is not its own, and leaves no desktop behind")
struct DesktopScriptTests {
    private let script = Desktop.repository.appendingPathComponent("Scripts/desktop").path

    @Test("A missing directory: 66 naming it")
    func missingDirectory() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-missing-\(UUID().uuidString)").path
        let result = try Subprocess.runExecutable(script, ["xvfb", "299", missing], timeout: 30)
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains(missing))
        #expect(result.stdout.isEmpty)
    }

    @Test("A display another server holds: 66, and not that server's display")
    func takenDisplay() throws {
        try #require(Desktop.Kind.xvfb.isInstalled, "Xvfb is not installed")
        let first = try Desktop(.xvfb)
        defer { first.stop() }
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let number = String(first.display.dropFirst())
        let result = try Subprocess.runExecutable(script, ["xvfb", number, dir.path],
                                                  environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], timeout: 30)
        #expect(result.status == 66, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("taken"), "\(result.stderr)")
        #expect(!result.stdout.contains("DISPLAY="), "\(result.stdout)")
        #expect(first.isRunning)
    }

    @Test("An X display whose lock names a process that is gone (a crashed server's): taken over, lock and socket")
    func staleDisplay() throws {
        try #require(Desktop.Kind.xvfb.isInstalled, "Xvfb is not installed")
        let number = "296"
        let lock = "/tmp/.X\(number)-lock", socket = "/tmp/.X11-unix/X\(number)"
        try #require(!FileManager.default.fileExists(atPath: lock) && !FileManager.default.fileExists(atPath: socket),
                     "display :\(number) is in use here")
        // A pid that was a process and is no more: a child that has ended and been waited for.
        let gone = try Subprocess.runExecutable("/bin/sh", ["-c", "echo $$"], timeout: 10).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(kill(pid_t(gone) ?? 0, 0) != 0, "pid \(gone) is running again")
        try (String(repeating: " ", count: max(0, 10 - gone.count)) + gone + "\n").write(toFile: lock, atomically: false, encoding: .utf8)
        try Data().write(to: URL(fileURLWithPath: socket))
        defer { try? FileManager.default.removeItem(atPath: lock); try? FileManager.default.removeItem(atPath: socket) }
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Subprocess.runExecutable(script, ["xvfb", number, dir.path],
                                                  environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], timeout: 60)
        let group = result.stdout.split(separator: "\n").first { $0.hasPrefix("PID=") }.map { String($0.dropFirst(4)) }
        defer { if let group { _ = try? Subprocess.runExecutable(script, ["stop", group], timeout: 30) } }
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("DISPLAY=:\(number)"), "\(result.stdout)")
        #expect(group != nil)
    }

    @Test("A desktop deaf to SIGTERM, the script stopped while it starts: the script ends within 10 s, none of the desktop left")
    func stoppedWhileStarting() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A stand-in Xvfb first on PATH that never listens and ignores SIGTERM, as its
        // sleep does: a compositor stuck in its own teardown, which only SIGKILL ends.
        let bin = dir.appendingPathComponent("bin"), runtime = dir.appendingPathComponent("runtime")
        for folder in [bin, runtime] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) }
        let standIn = bin.appendingPathComponent("Xvfb")
        try "#!/bin/sh\ntrap '' TERM\nwhile :; do sleep 1; done\n".write(to: standIn, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn.path)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let started = Date()
        let (result, _) = try ScriptSession.run([script, "xvfb", "297", runtime.path], environment: ["PATH": path],
                                                timeout: 30, signal: (after: 1, number: SIGTERM))
        #expect(Date().timeIntervalSince(started) < 11, "ended \(Date().timeIntervalSince(started)) s after its start")
        #expect(result.status != 0 && result.stdout.isEmpty, "exit \(result.status): \(result.stdout)")
        let left = ScriptSession.survivors(running: standIn.path)
        #expect(left.isEmpty, "left running: \(left)")
        for entry in left { kill(pid_t(entry.prefix { $0 != ":" }) ?? 0, SIGKILL) }
    }
}
