import ArgumentParser
@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// `cadence-bench cost-loop`: the plainest game on Cadence's public API
/// (`GameWindow(vsync:rateLimit:)`, a clear and one rectangle a frame, events
/// polled), for `Scripts/bench cost` to set beside the same drawing paced by
/// MangoHud, `SDL_Delay`, a busy-wait and vsync alone. It writes when each
/// present returned, in ns on `CLOCK_MONOTONIC`, one a line (as
/// `Programs/Bench/plain_gl_loop.c` does), and prints the run's summary.
struct CostLoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cost-loop",
        abstract: "The plainest game on the public API, paced by Cadence, for Scripts/bench cost.")
    @Option(help: "The cap, e.g. 144; 0 for the display's rate.") var fps = 144
    @Option(help: "Vsync on or off.") var vsync = "off"
    @Option(help: "Seconds to run, e.g. 5.") var seconds = 5.0
    @Option(help: "Where to write the present returns.") var log: String

    func validate() throws {
        guard (0...1000).contains(fps) else { throw ValidationError("--fps: expected 0 to 1000, e.g. 144") }
        guard vsync == "on" || vsync == "off" else { throw ValidationError("--vsync: expected on or off") }
        guard seconds.isFinite, (1...3600).contains(seconds) else {
            throw ValidationError("--seconds: expected 1 to 3600, e.g. 5")
        }
    }

    func run() throws {
        try MainActor.assumeIsolated { try runOnMain() }
    }

    @MainActor private func runOnMain() throws {
        let game: GameWindow
        do {
            game = try GameWindow(title: "cadence-bench cost", width: 640, height: 360, vsync: vsync == "on" ? .on : .off,
                                  rateLimit: fps > 0 ? .cap(Double(fps)) : .displayRate)
        } catch {
            printError("cost-loop: \(error)")
            throw ExitCode(66)
        }
        defer { game.shutdown() }
        let client = CostClient(game: game, until: game.clock.now + TimeUnit.nanoseconds(seconds: seconds))
        game.run(client)
        let text = client.returns.map { "\($0)\n" }.joined()
        guard FileManager.default.createFile(atPath: log, contents: Data(text.utf8)) else {
            printError("cost-loop: cannot write \(log)")
            throw ExitCode(73)
        }
        print(game.statistics.runSummary)
    }
}

/// Polls events, draws the clear and the rectangle, and keeps when each present returned.
private final class CostClient: FrameLoopClient {
    let game: GameWindow
    let end: Nanoseconds
    private(set) var returns: [Nanoseconds] = []
    private var drawn = 0

    init(game: GameWindow, until end: Nanoseconds) {
        self.game = game
        self.end = end
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        _ = game.pollEvents()
        return loop.clock.now < end
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        game.renderer.clear(Color(16, 16, 24))
        game.renderer.fill(Rect(x: (drawn * 3) % 608, y: 164, width: 32, height: 32), Color(240, 180, 40))
        drawn += 1
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        returns.append(record.presentTime)
    }
}
