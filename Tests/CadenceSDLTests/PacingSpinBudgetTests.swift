@_spi(Programs) import Cadence
import Testing
@_spi(Programs) @testable import CadenceSDL

/// Counts frames and ends the run after `frames`, keeping their records.
private final class BriefGame: FrameLoopClient {
    let frames: Int
    var records: [FrameRecord] = []

    init(frames: Int) { self.frames = frames }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {}

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        records.append(record)
        if records.count == frames { loop.link.invalidate() }
    }
}

extension SDLSuites {
    @MainActor
    @Suite("The pacing's spin budget, as a game sets it")
    struct PacingSpinBudget {
        @Test("It reads 3% by default, holds to 0…1, and at 0 a capped run never spins and never presents before a target")
        func budget() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let game = try GameWindow(session: session, title: "test", width: 64, height: 48, headless: true,
                                      rateLimit: .cap(100))
            #expect(game.pacingSpinBudget == 0.03)
            game.pacingSpinBudget = 2
            #expect(game.pacingSpinBudget == 1)
            game.pacingSpinBudget = -1
            #expect(game.pacingSpinBudget == 0)
            let client = BriefGame(frames: 20)
            game.run(client)
            #expect(game.sleeper.spunTime == 0)
            #expect(client.records.count == 20)
            #expect(client.records.allSatisfy { $0.presentSubmit >= $0.slotTimestamp })
        }
    }
}
