// Pong, step 2 of 4 (the tutorial "Building Pong step by step" in
// CadenceSDL's documentation): two paddles, moved in fixed steps and drawn
// between the last two.
import Cadence
import CadenceSDL
import Foundation

/// Everything that moves, as plain values: a step is a pure update, and
/// the last two states can be drawn between.
struct World {
    static let width = 960.0, height = 540.0
    static let paddleHeight = 80.0, paddleSpeed = 360.0

    var left = 270.0, right = 270.0   // the paddles' centres

    /// One fixed step of `dt` seconds; each move is -1 (up), 0 or +1 (down).
    mutating func update(dt: Double, leftMove: Double, rightMove: Double) {
        let half = World.paddleHeight / 2
        left = min(max(left + leftMove * World.paddleSpeed * dt, half), World.height - half)
        right = min(max(right + rightMove * World.paddleSpeed * dt, half), World.height - half)
    }
}

final class Pong: FrameLoopClient {
    let window: GameWindow
    var simulation = FixedStep(stepsPerSecond: 120)
    var previous = World(), current = World()
    var held: Set<Key> = []
    var quit = false

    init(window: GameWindow) {
        self.window = window
    }

    /// Input, before each frame. Returns false to end the game.
    func prepareFrame(_ loop: FrameLoop) -> Bool {
        for event in window.pollEvents() {
            switch event {
            case .quit, .keyDown(.escape, _, _): quit = true
            case .keyDown(let key, _, _): held.insert(key)
            case .keyUp(let key): held.remove(key)
            default: break
            }
        }
        return !quit
    }

    /// -1, 0 or +1: which of the two keys is held.
    func axis(up: Key, down: Key) -> Double {
        (held.contains(down) ? 1 : 0) - (held.contains(up) ? 1 : 0)
    }

    /// One frame: the steps due by the time it is on the glass, then draw.
    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        let leftMove = axis(up: .letter("w"), down: .letter("s"))
        let rightMove = axis(up: .up, down: .down)
        for _ in 0..<simulation.advance(to: frame) {
            previous = current
            current.update(dt: simulation.step, leftMove: leftMove, rightMove: rightMove)
        }
        draw(alpha: simulation.alpha)
    }

    /// The world between its last two states, `alpha` of the way.
    func draw(alpha: Double) {
        func mix(_ a: Double, _ b: Double) -> Int { Int((a + (b - a) * alpha).rounded()) }
        let renderer = window.renderer
        renderer.clear(Color(10, 12, 20))
        for y in stride(from: 0, to: 540, by: 30) {
            renderer.fill(Rect(x: 478, y: y, width: 4, height: 16), Color(90, 90, 110))
        }
        let half = Int(World.paddleHeight / 2), white = Color(235, 235, 240)
        renderer.fill(Rect(x: 30, y: mix(previous.left, current.left) - half, width: 12, height: 2 * half), white)
        renderer.fill(Rect(x: 918, y: mix(previous.right, current.right) - half, width: 12, height: 2 * half), white)
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
