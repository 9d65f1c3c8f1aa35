import Cadence
import CadenceSDL

/// A square crossing the window at 200 px per second of glass time, at any frame rate.
final class MyGame: FrameLoopClient {
    let window: GameWindow
    var x = 0.0
    init(_ window: GameWindow) { self.window = window }

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        for event in EventPump.poll() {
            switch event {
            case .quit, .keyDown(.escape, _, _): return false
            case .hidden: loop.link.isPaused = true
            case .shown: loop.link.isPaused = false
            default: break
            }
        }
        return true
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        // frame.targetTimestamp: when this frame will be on the glass (seconds).
        // frame.delta: this target minus the previous one, skipped frames included.
        x = (x + 200 * frame.delta).truncatingRemainder(dividingBy: 1280)
        window.renderer.beginFrame()    // lets VRR show a frame twice below its range
        window.renderer.clear(Color(0, 0, 0))
        window.renderer.fill(Rect(x: Int(x), y: 320, width: 80, height: 80), Color(255, 255, 255))
        window.renderer.flush()         // draw now; the present at the target is only the swap
    }
}

do {
    let window = try GameWindow(title: "My game", rateLimit: .cap(120))
    window.run(MyGame(window))
    window.shutdown()
} catch {
    print("cannot open a window: \(error)")
}
