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
    @Option(help: "The share of a core the sleeper may spin (0 to 1); the library's default when left out.")
    var spinBudget: Double?
    @Option(help: "The loop's scheduling class while paced: realtime (where allowed) or normal.")
    var scheduling = "realtime"
    @Option(help: "Where to write each frame's target, submit and return, in ns, one frame a line.")
    var detail: String?

    func validate() throws {
        guard (0...1000).contains(fps) else { throw ValidationError("--fps: expected 0 to 1000, e.g. 144") }
        guard vsync == "on" || vsync == "off" else { throw ValidationError("--vsync: expected on or off") }
        guard spinBudget.map({ (0...1).contains($0) }) ?? true else {
            throw ValidationError("--spin-budget: expected 0 to 1, e.g. 0.03")
        }
        guard scheduling == "realtime" || scheduling == "normal" else {
            throw ValidationError("--scheduling: expected realtime or normal")
        }
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
        if let spinBudget { game.pacingSpinBudget = spinBudget }
        game.backend.scheduling.pacesInRealTime = scheduling == "realtime"
        let client = CostClient(game: game, until: game.clock.now + TimeUnit.nanoseconds(seconds: seconds))
        game.run(client)
        try write(client.records.map { "\($0.presentTime)\n" }.joined(), to: log)
        if let detail {
            try write(client.records.map { "\($0.targetTimestamp) \($0.presentSubmit) \($0.presentTime)\n" }.joined(),
                      to: detail)
        }
        print(game.statistics.runSummary)
    }

    private func write(_ text: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            printError("cost-loop: cannot write \(path)")
            throw ExitCode(73)
        }
    }
}

/// Polls events, draws the clear and the rectangle, and keeps each frame's record.
private final class CostClient: FrameLoopClient {
    let game: GameWindow
    let end: Nanoseconds
    private(set) var records: [FrameRecord] = []
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
        records.append(record)
    }
}
