import Foundation
import Testing

/// A real run that presented no frame says why and exits 69: a script that
/// judges frames (the vblank lab on an emulated machine) tells it apart from
/// a run it can judge.
@Suite("A run with no frame presented")
struct NoFrameRunTests {
    @Test("A --duration shorter than start-up: exit 69, the start-up's length and --frames named")
    func durationShorterThanStartUp() throws {
        // SDL, a window and a renderer take far longer than a microsecond to start.
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--duration", "0.000001"], timeout: 60)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("no frame presented: start-up"), "\(result.stderr)")
        #expect(result.stderr.contains("--frames N"), "\(result.stderr)")
        #expect(result.stdout.contains("frames 0"), "\(result.stdout)")
    }

    @Test("A run that presented frames exits 0 and says nothing of the kind")
    func framesPresented() throws {
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "3"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("no frame presented"), "\(result.stderr)")
    }
}
