import Foundation
import Testing

/// `cheatsheet [--frames N]`: the documentation's cheatsheet as a game, run as a user would.
@Suite("The cheatsheet's game")
struct CheatsheetTests {
    @Test("Started from another folder, it finds its sprite sheet through Bundle.module and runs 30 frames in an X11 window")
    func findsItsAssetAndRuns() throws {
        let elsewhere = try Subprocess.temporaryDirectory().path
        let binary = Subprocess.productsDirectory.appendingPathComponent("cheatsheet").path
        // env -C: the game's working directory holds no Assets folder.
        let result = try Subprocess.runExecutable("/usr/bin/env", [
            "-C", elsewhere, "xvfb-run", "-a", "-s", "-screen 0 1280x800x24", binary, "--frames", "30",
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 90)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("cannot start"), "\(result.stdout)")
        // The run's summary, printed last.
        #expect(result.stdout.contains("frames 30, achieved "), "\(result.stdout)")
    }
}
