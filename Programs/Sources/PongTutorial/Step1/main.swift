// Pong, step 1 of 4 (the tutorial "Building Pong step by step" in
// CadenceSDL's documentation): a window, the court, and Esc to quit.
import Cadence
import CadenceSDL
import Foundation

final class Pong: FrameLoopClient {
    let window: GameWindow
    var quit = false

    init(window: GameWindow) {
        self.window = window
    }

    /// Input, before each frame. Returns false to end the game.
    func prepareFrame(_ loop: FrameLoop) -> Bool {
        for event in window.pollEvents() {
            switch event {
            case .quit, .keyDown(.escape, _, _): quit = true
            default: break
            }
        }
        return !quit
    }

    /// One frame: draw the court.
    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        let renderer = window.renderer
        renderer.clear(Color(10, 12, 20))
        for y in stride(from: 0, to: 540, by: 30) {
            renderer.fill(Rect(x: 478, y: y, width: 4, height: 16), Color(90, 90, 110))
        }
    }
}

do {
    let window = try GameWindow(title: "Pong", width: 960, height: 540)
    window.run(Pong(window: window))
    window.shutdown()
} catch {
    FileHandle.standardError.write(Data("Pong cannot start: \(error)\n".utf8))
    exit(1)
}
