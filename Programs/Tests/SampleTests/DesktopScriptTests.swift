import Foundation
import Testing

/// `Scripts/desktop` reports only a desktop of its own: a missing directory
/// or a taken display is refused with 66 and a message, never answered with
/// another server's display.
@Suite("Scripts/desktop refuses what is not its own")
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
}
