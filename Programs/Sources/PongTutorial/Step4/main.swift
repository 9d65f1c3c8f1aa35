// Pong, step 4 of 4 (the tutorial "Building Pong step by step" in
// CadenceSDL's documentation), the whole game: the score, the achieved FPS
// in the title, a 30 FPS cap (C) and uncapped (U). W/S and the arrows move
// the paddles; Esc quits.
import Cadence
import CadenceSDL
import Foundation

/// Everything that moves, as plain values: a step is a pure update, and
/// the last two states can be drawn between.
struct World {
    static let width = 960.0, height = 540.0
    static let paddleHeight = 80.0, paddleSpeed = 360.0, ballSize = 12.0

    var left = 270.0, right = 270.0   // the paddles' centres
    var ballX = 474.0, ballY = 264.0, ballVX = 300.0, ballVY = 180.0
    var scoreLeft = 0, scoreRight = 0

    /// One fixed step of `dt` seconds; each move is -1 (up), 0 or +1 (down).
    mutating func update(dt: Double, leftMove: Double, rightMove: Double) {
        let half = World.paddleHeight / 2
        left = min(max(left + leftMove * World.paddleSpeed * dt, half), World.height - half)
        right = min(max(right + rightMove * World.paddleSpeed * dt, half), World.height - half)
        moveBall(dt: dt)
    }

    /// The ball: off the walls, off the paddles (a little faster each time), or past one: a point.
    mutating func moveBall(dt: Double) {
        ballX += ballVX * dt
        ballY += ballVY * dt
        let bottom = World.height - World.ballSize
        if ballY < 0 { (ballY, ballVY) = (-ballY, -ballVY) }
        if ballY > bottom { (ballY, ballVY) = (2 * bottom - ballY, -ballVY) }
        if ballVX < 0, ballX <= 42, ballX + World.ballSize >= 30, meets(left) {
            (ballX, ballVX) = (42, -ballVX * 1.05)
        }
        if ballVX > 0, ballX + World.ballSize >= 918, ballX <= 930, meets(right) {
            (ballX, ballVX) = (918 - World.ballSize, -ballVX * 1.05)
        }
        if ballX < -World.ballSize { scoreRight += 1; serve(towards: -1) }
        if ballX > World.width { scoreLeft += 1; serve(towards: 1) }
    }

    /// Whether the ball's height overlaps the paddle centred at `paddle`.
    func meets(_ paddle: Double) -> Bool {
        abs(ballY + World.ballSize / 2 - paddle) <= (World.paddleHeight + World.ballSize) / 2
    }

    /// The ball back in the middle, towards the player who lost the point (-1: left).
    mutating func serve(towards direction: Double) {
        (ballX, ballY) = ((World.width - World.ballSize) / 2, (World.height - World.ballSize) / 2)
        ballVX = 300 * direction
    }
}

final class Pong: FrameLoopClient {
    let window: GameWindow
    let text: TextRenderer
    var statistics = FrameStatistics()
    var simulation = FixedStep(stepsPerSecond: 120)
    var previous = World(), current = World()
    var held: Set<Key> = []
    var quit = false

    init(window: GameWindow) throws {
        self.window = window
        text = try TextRenderer(renderer: window.renderer, size: 40)
    }

    /// Input, before each frame. Returns false to end the game.
    func prepareFrame(_ loop: FrameLoop) -> Bool {
        for event in window.pollEvents() {
            switch event {
            case .quit, .keyDown(.escape, _, _): quit = true
            case .keyDown(.letter("c"), _, false):
                window.rateLimit = window.rateLimit == .cap(30) ? .displayRate : .cap(30)
            case .keyDown(.letter("u"), _, false):
                window.rateLimit = window.rateLimit == .uncapped ? .displayRate : .uncapped
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
        // A serve jumps: drawn where it is, not on the way from where the point was lost.
        let served = previous.scoreLeft + previous.scoreRight != current.scoreLeft + current.scoreRight
        let ball = served ? Rect(x: Int(current.ballX), y: Int(current.ballY), width: 12, height: 12)
            : Rect(x: mix(previous.ballX, current.ballX), y: mix(previous.ballY, current.ballY), width: 12, height: 12)
        renderer.fill(ball, Color(240, 180, 60))
        text.draw("\(current.scoreLeft)", x: 430 - text.width(of: "\(current.scoreLeft)"), y: 20)
        text.draw("\(current.scoreRight)", x: 530, y: 20)
        text.endFrame()   // once a frame: forgets the strings no longer drawn
    }

    /// After each present, with when the frame reached the glass.
    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        statistics.record(record)
        if record.frame % 60 == 0, let fps = statistics.achievedFPS {
            window.title = "Pong (\(Int(fps.rounded())) FPS)"
        }
    }
}

do {
    let window = try GameWindow(title: "Pong", width: 960, height: 540)
    let pong = try Pong(window: window)
    window.run(pong)
    print(pong.statistics.runSummary.line)
    window.shutdown()
} catch {
    FileHandle.standardError.write(Data("Pong cannot start: \(error)\n".utf8))
    exit(1)
}
