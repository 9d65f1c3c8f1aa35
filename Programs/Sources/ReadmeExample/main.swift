import Cadence
import CadenceSDL

/// A square crossing the window at 200 px per second of glass time, at any frame rate.
final class MyGame: FrameLoopClient {
    let window: GameWindow
    var x = 0.0
    init(_ window: GameWindow) { self.window = window }

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        // The window pauses the link while hidden and follows it to another display.
        for event in window.pollEvents() {
            if case .quit = event { return false }
            if case .keyDown(.escape, _, _) = event { return false }
        }
        return true
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        // frame.targetTimestamp: when this frame will be on the glass (seconds).
        // frame.delta: this target minus the previous one, skipped frames included.
        x = (x + 200 * frame.delta).truncatingRemainder(dividingBy: 1280)
        window.renderer.clear(Color(0, 0, 0))
        window.renderer.fill(Rect(x: Int(x), y: 320, width: 80, height: 80), Color(255, 255, 255))
    }
}

do {
    let window = try GameWindow(title: "My game", rateLimit: .cap(120))
    window.run(MyGame(window))
    window.shutdown()
} catch {
    print("cannot open a window: \(error)")
}
