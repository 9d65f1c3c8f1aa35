import Foundation
import Testing

/// A flag that does nothing in the chosen mode is a usage error (64) naming
/// it, never silently accepted; the same flag where it acts runs.
@Suite("Flags that do nothing in the chosen mode")
struct IdleFlagTests {
    @Test("Refused with 64, the flag named", arguments: [
        ["--video", "wayland", "--simulate-display", "fixed:60"], ["--video", "x11", "--simulate-display", "fixed:60"],
        ["--video", "auto", "--headless"], ["--video", "wayland", "--headless"],
        ["--vsync", "off", "--headless"], ["--fullscreen", "--headless"], ["--vrr", "off", "--headless"],
        ["--vrr-range", "48-144", "--headless"], ["--window", "640x360", "--simulate-display", "fixed:60"],
        ["--headless", "--simulate-display", "fixed:60"], ["--vrr-range", "48-144", "--simulate-display", "vrr:48-144"],
        ["--refresh-schedule", "1:fixed:60", "--headless"], ["--input-script", "0.5:key=right", "--simulate-display", "fixed:60"],
        ["--sprite", "x.bmp", "--simulate-display", "fixed:60"],
    ])
    func refused(arguments: [String]) throws {
        let result = try Subprocess.run("spinning-sprite", arguments + ["--frames", "2"], timeout: 30)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(arguments[0]), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty, "it ran: \(result.stdout)")
    }

    @Test("Accepted where they act", arguments: [
        ["--vsync", "off", "--simulate-display", "fixed:60"], ["--fullscreen", "--simulate-display", "vrr:48-144"],
        ["--vrr", "off", "--simulate-display", "vrr:48-144"], ["--window", "640x360", "--headless"],
        ["--window", "640x360", "--simulate-display", "fixed:60", "--screenshot", "s.bmp"],
        ["--latency", "low", "--headless"], ["--spin-speed", "30", "--simulate-display", "fixed:60"],
    ])
    func accepted(arguments: [String]) throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = arguments.map { $0 == "s.bmp" ? dir.appendingPathComponent("s.bmp").path : $0 }
        let result = try Subprocess.run("spinning-sprite", arguments + ["--frames", "2"], timeout: 30)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.stdout.contains("frames 2"), "\(arguments): \(result.stdout)")
    }
}
