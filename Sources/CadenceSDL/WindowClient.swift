import Cadence

/// The game's client as ``GameWindow/run(_:)`` hands it to the loop: the
/// game, with the window's own chores for each frame that reaches the glass
/// (its ``GameWindow/statistics`` and the overlay's figures) done before the
/// game hears of the frame, so the game reads statistics that include it.
@MainActor
final class WindowClient: FrameLoopClient {
    private unowned let window: GameWindow
    private let game: FrameLoopClient

    init(window: GameWindow, game: FrameLoopClient) {
        self.window = window
        self.game = game
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool { game.prepareFrame(loop) }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) { game.runFrame(frame, loop) }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        window.frameReachedGlass(record)
        game.framePresented(record, loop)
    }

    func idle(_ loop: FrameLoop) -> Bool { game.idle(loop) }
}
