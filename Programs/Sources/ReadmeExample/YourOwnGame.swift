import Cadence
import CadenceSDL
import Foundation

// The snippets of the CadenceSDL article "More for your game", compiled here so they cannot go stale.

/// The achieved frame rate, from when frames really reached the glass.
final class FPSCounter: FrameLoopClient {
    let window: GameWindow
    let text: TextRenderer
    var statistics = FrameStatistics()

    init(_ window: GameWindow) throws {
        self.window = window
        text = try TextRenderer(renderer: window.renderer, size: 16)
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        window.renderer.clear(Color(0, 0, 0))
        // nil until two frames have been shown.
        let fps = statistics.achievedFPS.map { String(format: "%.1f FPS", $0) } ?? "-- FPS"
        text.draw(fps, x: 8, y: 8, color: Color(255, 255, 255))
        text.endFrame()   // once a frame: forgets the strings no longer drawn
    }

    /// Called after each present, with when the frame reached the glass.
    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        statistics.record(record)
        if record.frame % 60 == 0, let fps = statistics.achievedFPS {
            window.title = "My game (\(Int(fps.rounded())) FPS)"
        }
    }
}

/// Every way to set the rate, one per key.
func setRate(for key: Key, on window: GameWindow) {
    switch key {
    case .digit(0): window.rateLimit = .displayRate  // every refresh (60 on a 60 Hz display)
    case .digit(1): window.rateLimit = .cap(30)      // at most 30: the highest even rate <= 30
    case .digit(2): window.rateLimit = .range(FrameRateRange(minimum: 40, maximum: 60, preferred: 50))
    case .digit(3): window.rateLimit = .adaptive     // the highest rate the game's work sustains
    case .digit(4): window.rateLimit = .uncapped     // vsync off, no cap: as fast as the game runs
    default: break
    }
}

/// Things that come and go, each with an identity that outlives a step.
struct Ball {
    var x = 0.0, y = 0.0, vx = 120.0, vy = 80.0
}

struct Balls {
    var byID: [Int: Ball] = [:]
    var nextID = 0

    mutating func add(_ ball: Ball) {
        byID[nextID] = ball
        nextID += 1
    }

    mutating func update(dt: Double) {
        for id in byID.keys {
            byID[id]!.x += byID[id]!.vx * dt
            byID[id]!.y += byID[id]!.vy * dt
        }
        byID = byID.filter { $0.value.x < 1280 && $0.value.y < 720 }   // gone off screen: removed
    }
}

/// Draws each ball between its last two states, `alpha` (``FixedStep/alpha``)
/// of the way from the previous step to the current one.
func draw(previous: Balls, current: Balls, alpha: Double, on renderer: Renderer) {
    for (id, now) in current.byID {
        let then = previous.byID[id] ?? now   // added this step: no earlier state, drawn where it is
        let x = then.x + (now.x - then.x) * alpha, y = then.y + (now.y - then.y) * alpha
        renderer.fill(Rect(x: Int(x.rounded()), y: Int(y.rounded()), width: 10, height: 10), Color(240, 180, 60))
    }
    // Removed this step: in `previous` only, so no longer drawn.
}

/// A game drawn at 960x540 in any window, its ship one cell of a sprite sheet.
final class SpriteSheetGame {
    let window: GameWindow
    let sheet: Texture
    var cell = 0, heading = 0.0

    init(_ window: GameWindow, sheetPath: String) throws {
        self.window = window
        window.renderer.setLogicalSize(width: 960, height: 540)   // the game's own size; SDL scales it, with bars
        sheet = try Texture(file: sheetPath, renderer: window.renderer)   // PNG, JPEG or BMP
    }

    func draw(ship: Point) {
        let renderer = window.renderer
        renderer.clear(.black)
        // Cell `cell` of a row of 32x32 cells, turned to the ship's heading.
        renderer.draw(sheet, source: Rect(x: cell * 32, y: 0, width: 32, height: 32),
                      in: Box(center: ship, width: 32, height: 32), rotation: heading)
        window.drawStatistics()   // in the window's pixels, whatever the logical size
    }
}

/// Where the player steers now, from what is held: keys, the mouse, every controller.
func steering(from ship: Point, pointer: Point?) -> Point {
    var steer = Point(x: Keyboard.axis(.left, .right), y: Keyboard.axis(.up, .down))
    // `pointer` from the last mouse event, in the game's logical pixels
    // (Mouse.position is in the window's).
    if let pointer, Mouse.isDown(.left) { steer = pointer - ship }
    for id in GameControllers.connected {
        steer += Point(x: GameControllers.value(of: .leftX, on: id), y: GameControllers.value(of: .leftY, on: id))
    }
    return steer.normalized
}

/// Shapes, a tint and a text size per call: a ship's shield, a rock, a laser, a hit's flash, a banner.
func drawScene(on renderer: Renderer, text: TextRenderer, ship: Point, sprite: Texture, hit: Bool) {
    renderer.fillCircle(center: ship, radius: 28, Color(80, 160, 255, 60))    // a translucent shield
    renderer.outlineCircle(center: ship, radius: 28, .cyan, thickness: 2)
    let rock = [Point(x: 600, y: 300), Point(x: 660, y: 280), Point(x: 640, y: 320),
                Point(x: 680, y: 360), Point(x: 610, y: 350)]
    renderer.fillPolygon(rock, .brown)                                        // concave is fine
    renderer.line(from: ship, to: Point(x: 640, y: 320), .red, thickness: 3)  // a laser
    renderer.draw(sprite, in: Box(center: ship, width: 32, height: 32), tint: hit ? .red : .white)
    text.draw("GAME OVER", x: 300, y: 200, color: .white, size: 64)           // any size, per call
}
