// A Cadence game in one file: copy it to start yours.
//
// In raylib's and SDL's template sections: init, update, draw, shut down. The
// world updates in fixed steps, 60 a second, up to when each frame will be on
// the glass, and is drawn between its last two states: smooth at any rate.
//
// Arrows move the blue star (hold the mouse button to steer it to the
// pointer instead), C toggles a 30 FPS cap, U uncapped (vsync off, as fast as
// the game runs), L low latency (each frame starts just in time for its
// target), S the statistics panel, Esc or Q quits. The ball clicks as it
// bounces, heard as the frame that shows the bounce is seen.
//
//     swift run --package-path Programs template [--frames N] [--screenshot out.bmp] [--window WxH]

import Cadence
import CadenceSDL
import Glibc   // exit and standard error: no Foundation, so a shipped game need not carry it

// MARK: - Init

/// This program's name, as it was run (a fork's own name).
let program = CommandLine.arguments[0].split(separator: "/").last.map(String.init) ?? "template"

/// Says `message` on standard error (file descriptor 2), after the program's name.
func complain(_ message: String) {
    let line = Array("\(program): \(message)\n".utf8)
    _ = write(2, line, line.count)
}

/// Says `message` and exits with `code` (64: usage, 73: cannot write output).
func fail(_ message: String, code: Int32 = 1) -> Never {
    complain(message)
    exit(code)
}

let usage = "usage: \(program) [--frames N] [--screenshot out.bmp] [--window WxH]"
var frameLimit: Int?, screenshotPath: String?, windowSize = (width: 960, height: 540)
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch (flag, arguments.popFirst()) {
    case ("--help", _), ("-h", _): print(usage); exit(0)
    case ("--frames", let n?) where (Int(n) ?? 0) > 0: frameLimit = Int(n)
    case ("--screenshot", let path?): screenshotPath = path
    case ("--window", let size?):
        let wh = size.split(separator: "x").compactMap { Int($0) }
        guard wh.count == 2, wh.allSatisfy({ $0 >= 64 }) else { fail(usage, code: 64) }
        windowSize = (wh[0], wh[1])
    default: fail(usage, code: 64)
    }
}
// Checked now, touching nothing: the screenshot is written only when taken,
// beside its path and renamed over it (Image.saveBMP), so an older file survives any failure.
if let path = screenshotPath {
    do { try AtomicReplacement.checkCreatable(path) } catch { fail("--screenshot: \(error)", code: 73) }
}

// With no display the error says what is missing and what to run instead.
let window: GameWindow
do {
    window = try GameWindow(title: "Cadence template", width: windowSize.width, height: windowSize.height)
} catch { fail("\(error)") }
// Said, not fatal: the game runs without the panel (S) when its font is missing.
if let why = window.statisticsUnavailable { complain(why) }
// The game is drawn in 960x540 units, scaled to any window (with bars where its shape differs).
window.renderer.setLogicalSize(width: 960, height: 540)

// MARK: - Update: the world, one fixed step at a time

/// Everything that moves: plain values, so that a step is a pure update and
/// the last two states can be kept for drawing between them.
struct World {
    static let size = Point(x: 960, y: 540)
    var player = Point(x: 480, y: 270)
    var ball = Point(x: 120, y: 90)
    var ballVelocity = Point(x: 260, y: 190)

    /// Advances by `dt` seconds, the player steered by the arrow keys or
    /// toward the pointer. Returns whether the ball bounced.
    mutating func update(dt: Double, keys: Point, pointer: Point?) -> Bool {
        let direction = pointer.map { $0 - player } ?? keys
        player += direction.normalized * min(direction.length, 320 * dt)
        player.x = min(max(player.x, 24), World.size.x - 24)
        player.y = min(max(player.y, 24), World.size.y - 24)
        ball += ballVelocity * dt
        let bounceX = ball.x < 0 || ball.x > World.size.x - 20, bounceY = ball.y < 0 || ball.y > World.size.y - 20
        if bounceX { ballVelocity.x = -ballVelocity.x }
        if bounceY { ballVelocity.y = -ballVelocity.y }
        return bounceX || bounceY
    }
}

final class Game: FrameLoopClient {
    let window: GameWindow
    let text: TextRenderer?   // nil without the font: no text
    /// A click made in code (no file): 30 ms of 880 Hz dying away. Silent where there is no audio device.
    let bounce = Sound(samples: (0..<1_440).map { Float(sin(Double($0) * 2 * .pi * 880 / 48_000) * exp(-Double($0) / 300)) })
    let frameLimit: Int?, screenshotPath: String?
    var simulation = FixedStep(stepsPerSecond: 60)   // at most 8 updates a frame; more are dropped
    var previous = World(), current = World()
    var pointer: Point?
    var framesDrawn = 0, quit = false
    var showsStatistics = true   // achieved FPS, late frames, hitch ratio, the frame-time graph

    init(_ window: GameWindow, frameLimit: Int?, screenshotPath: String?) {
        (self.window, self.frameLimit, self.screenshotPath) = (window, frameLimit, screenshotPath)
        text = try? TextRenderer(renderer: window.renderer, size: 16)
    }

    /// Input, before each frame. Returns false to quit.
    func prepareFrame(_ loop: FrameLoop) -> Bool {
        readInput(loop)
        return !quit && framesDrawn < frameLimit ?? .max
    }

    func readInput(_ loop: FrameLoop) {
        for event in window.pollEvents() {   // pauses while hidden, follows the window to another display
            switch event {
            case .quit, .keyDown(.escape, _, _), .keyDown(.q, _, _): quit = true
            case .keyDown(.c, _, false):
                window.rateLimit = window.rateLimit == .cap(30) ? .displayRate : .cap(30)
            case .keyDown(.u, _, false):
                window.rateLimit = window.rateLimit == .uncapped ? .displayRate : .uncapped
            case .keyDown(.l, _, false): loop.latency = loop.latency == .low ? .smooth : .low
            case .keyDown(.s, _, false): showsStatistics.toggle()
            case .mouseDown(let x, let y, .left), .mouseMotion(let x, let y, dragging: true):
                pointer = Point(x: Double(x), y: Double(y))
            case .mouseUp(_, _, .left): pointer = nil
            default: break
            }
        }
    }

    /// One frame: update to when it will be seen, then draw.
    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        if loop.latency == .low { readInput(loop) }   // the loop waited just now: take what came meanwhile
        let keys = Point(x: Keyboard.axis(.left, .right), y: Keyboard.axis(.up, .down))   // held now
        for _ in 0..<simulation.advance(to: frame) {
            previous = current
            // Heard when this frame, the first to show the bounce, reaches the glass.
            if current.update(dt: simulation.step, keys: keys, pointer: pointer) { bounce.play(when: frame) }
        }
        draw(player: previous.player.mix(current.player, simulation.alpha),
             ball: previous.ball.mix(current.ball, simulation.alpha), lowLatency: loop.latency == .low)
        framesDrawn += 1
        if framesDrawn == frameLimit, let path = screenshotPath,
           (try? window.renderer.readPixels().saveBMP(to: path)) == nil { fail("cannot save \(path)", code: 73) }
    }

    // MARK: - Draw

    func draw(player: Point, ball: Point, lowLatency: Bool) {
        let renderer = window.renderer
        renderer.clear(Color(18, 20, 28))
        text?.draw("Cadence", x: 360, y: 230, color: Color(255, 255, 255, 40), size: 64)   // a size per call
        renderer.line(from: player, to: ball + Point(x: 10, y: 10), Color(240, 180, 60, 90), thickness: 3)
        renderer.fillCircle(center: ball + Point(x: 10, y: 10), radius: 10, Color(240, 180, 60))
        renderer.fillPolygon(star(at: player, radius: 26), Color(80, 160, 255))   // concave: five points
        renderer.outlineCircle(center: player, radius: 30, .white, thickness: 2)
        if window.rateLimit == .cap(30) { renderer.fill(Rect(x: 12, y: 12, width: 12, height: 12), Color(230, 60, 60)) }
        if lowLatency { renderer.fill(Rect(x: 30, y: 12, width: 12, height: 12), Color(80, 220, 120)) }
        if window.rateLimit == .uncapped { renderer.fill(Rect(x: 48, y: 12, width: 12, height: 12), Color(240, 220, 60)) }
        if showsStatistics { window.drawStatistics(x: 12, y: 32) }   // last, in window pixels: over everything
    }

    /// A five-pointed star's ten corners about `center`, pointing up.
    func star(at center: Point, radius: Double) -> [Point] {
        (0..<10).map { i in
            let angle = Double(i) * .pi / 5 - .pi / 2, r = i % 2 == 0 ? radius : radius * 0.45
            return center + Point(x: cos(angle), y: sin(angle)) * r
        }
    }
}

// MARK: - Run, then shut down

print("arrows or mouse: move   C: 30 FPS cap on/off   U: uncapped on/off   L: low latency on/off   "
      + "S: statistics on/off   Esc/Q: quit")
let game = Game(window, frameLimit: frameLimit, screenshotPath: screenshotPath)
window.run(game)
print(window.statistics.runSummary)
print("\(game.framesDrawn) frames, \(game.simulation.stepsRun) updates, \(game.simulation.stepsDropped) dropped")
window.shutdown()
