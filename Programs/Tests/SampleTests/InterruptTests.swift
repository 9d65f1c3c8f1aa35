import Foundation
import Testing

/// Ctrl-C and `kill`: the game stops cleanly and what it was saving is complete.
@Suite("Stopping spinning-sprite with a signal")
struct InterruptTests {
    @Test("SIGINT, SIGTERM or SIGHUP during a real-time run: exit 0, a complete Chrome trace, the summary line",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func realTime(signal: Int32) throws {
        let dir = try Subprocess.temporaryDirectory()
        let path = dir.appendingPathComponent("t.json").path
        // No --frames or --duration: only the signal ends this run.
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--trace", path],
                                        timeout: 30, signal: (after: 2, number: signal))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("frames "))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        #expect(events.filter { $0["name"] as? String == "work" }.count > 10)
        #expect((json?["otherData"] as? [String: Any])?["summary"] as? String != nil)
    }

    @Test("SIGTERM during a long simulation: exit 0 and a CSV trace whose every row is whole")
    func simulation() throws {
        let dir = try Subprocess.temporaryDirectory()
        let path = dir.appendingPathComponent("t.csv").path
        // A simulated day at 240 Hz would take minutes of CPU; the signal comes first.
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:240", "--duration", "86400",
                                                            "--trace", path],
                                        timeout: 60, signal: (after: 1.5, number: SIGTERM))
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let rows = text.split(separator: "\n")
        #expect(rows.count > 100)
        // Whole rows: as many fields as the header names.
        let fields = { (row: Substring) in row.split(separator: ",", omittingEmptySubsequences: false).count }
        #expect(rows.first?.hasPrefix("frame,timestamp,target_timestamp,") == true)
        #expect(rows.allSatisfy { fields($0) == fields(rows[0]) })
    }

    @Test("The X server going away mid-run: the Chrome trace is complete and the summary printed")
    func lostDisplay() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.json").path
        // A private X server on a display number of its own (-displayfd picks a free one).
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        // Process closes every other descriptor in the child, so the number comes on standard output.
        let fd = Pipe()
        server.arguments = ["-displayfd", "1", "-screen", "0", "1280x800x24"]
        server.standardOutput = fd
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        let number = try #require(String(decoding: fd.fileHandleForReading.availableData, as: UTF8.self)
            .split(separator: "\n").first.map(String.init))
        let serverID = server.processIdentifier
        // SIGKILL: a child of a test thread inherits its blocked SIGTERM.
        DispatchQueue.global().asyncAfter(deadline: .now() + 2.5) { kill(serverID, SIGKILL) }
        let result = try Subprocess.run("spinning-sprite", ["--trace", path],
                                        environment: ["DISPLAY": ":\(number)", "SDL_VIDEODRIVER": ""], timeout: 30)
        #expect(result.stdout.contains("frames "), "\(result.stderr)")
        // Named by the watchdog ("the X server at DISPLAY=:N went away") or, when Xlib ends the process first, at its exit.
        #expect(result.stderr.contains("the X server at DISPLAY=:\(number) went away") || result.stderr.contains("display server went away"),
                "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        #expect(events.filter { $0["name"] as? String == "work" }.count > 10)
        #expect((json?["otherData"] as? [String: Any])?["summary"] as? String != nil)
    }
}
