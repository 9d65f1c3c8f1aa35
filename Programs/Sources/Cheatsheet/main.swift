// Every call of the cheatsheet in CadenceSDL's documentation (Cheatsheet.md),
// compiled here so the page cannot go stale: Scripts/check-doc-code checks that
// each of its Swift blocks is in this file. It is a small game too: a ship from
// a sprite sheet in Assets/, steered by the arrows, the mouse or a controller.
//
//     swift run --package-path Programs cheatsheet [--frames N]

import Cadence
import CadenceSDL
import CSDL2
import Foundation

// MARK: - Window

/// Opens the window the cheatsheet's game runs in.
func openWindow() throws -> GameWindow {
    let window = try GameWindow(title: "My game", width: 1280, height: 720, rateLimit: .displayRate)
    window.renderer.setLogicalSize(width: 960, height: 540)   // draw in 960x540, scaled to fit with bars
    window.title = "My game: level 1"
    return window
}

/// The window's switches, by key.
func toggleWindow(_ window: GameWindow, key: Key) throws {
    switch key {
    case .f: try window.setFullscreen(true)          // desktop fullscreen (variable refresh needs it)
    case .w: try window.setFullscreen(false)         // back to a window
    case .v: window.setVSync(window.renderer.nextVSyncMode)   // on, off, adaptive: what the driver has
    default: break
    }
}

// MARK: - Images and assets

/// The game's pictures, loaded once.
struct Sprites {
    let ships: Texture
    let beep: Sound

    init(renderer: Renderer) throws {
        // Sources/MyGame/Assets, copied beside the program by `resources: [.copy("Assets")]`.
        guard let path = Bundle.module.path(forResource: "ships", ofType: "png", inDirectory: "Assets") else {
            throw CocoaError(.fileNoSuchFile)
        }
        ships = try Texture(file: path, renderer: renderer)   // PNG, JPEG, BMP, ... (SDL_image)
        beep = Sound(samples: (0..<2400).map { Float(sin(Double($0) * 0.115) * 0.5) })   // 50 ms at 880 Hz
    }
}

// MARK: - The game

/// What moves: the ship and its heading.
struct Ship {
    var position = Point(x: 480, y: 270)
    var heading = 0.0   // degrees, clockwise

    /// Moves by `dt` seconds toward where the player steers.
    mutating func update(dt: Double, steer: Point) {
        position += steer.normalized * 240 * dt
        if steer != .zero { heading = atan2(steer.x, -steer.y) * 180 / .pi }
    }
}

/// The cheatsheet's game: each method is one part of the page.
final class Game: FrameLoopClient {
    let window: GameWindow
    let sprites: Sprites
    let text: TextRenderer
    let frameLimit: Int?
    var simulation = FixedStep(stepsPerSecond: 60)
    var previous = Ship(), current = Ship()
    var running = true, paused = false, showsStatistics = true, frames = 0
    var target: Point?
    var zoom = 1.0

    init(_ window: GameWindow, frameLimit: Int?) throws {
        (self.window, self.frameLimit) = (window, frameLimit)
        sprites = try Sprites(renderer: window.renderer)
        text = try TextRenderer(renderer: window.renderer, size: 20)   // DejaVu Sans Mono, or fontPath: any .ttf
    }

    // MARK: Loop

    func prepareFrame(_ loop: FrameLoop) -> Bool {   // before each frame: input; false ends the loop
        readInput(loop)
        return running && frames < frameLimit ?? .max
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {   // update to when it is seen, then draw
        let steer = steering()
        for _ in 0..<simulation.advance(to: frame) where !paused {   // 60 steps a second, however fast frames go
            previous = current
            current.update(dt: simulation.step, steer: steer)
            if current.position.x < 0 { sprites.beep.play(when: frame) }   // heard as this frame is seen
        }
        draw(previous.position.mix(current.position, simulation.alpha))   // between the last two steps
        frames += 1
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {   // it reached the glass (optional)
        if record.frame % 60 == 0, let fps = window.statistics.achievedFPS {
            window.title = "My game (\(Int(fps.rounded())) FPS)"
        }
    }

    // MARK: Input

    func readInput(_ loop: FrameLoop) {
        for event in window.pollEvents() {   // once a frame; pauses while hidden, follows the display
            switch event {
            case .quit, .keyDown(.escape, _, _): running = false
            case .keyDown(.p, _, false): paused.toggle()   // false: not the key's auto-repeat
            case .keyDown(.s, let modifiers, _) where modifiers.contains(.control): saveScreenshot()
            case .keyDown(.g, _, false): showsStatistics.toggle()
            case .keyDown(.m, _, false): playSound()
            case .keyDown(let key, _, false): setRate(key, loop); try? toggleWindow(window, key: key)
            case .mouseDown(let x, let y, .left): target = Point(x: Double(x), y: Double(y))   // logical pixels
            case .mouseUp(_, _, .left): target = nil
            case .mouseWheel(_, let dy): zoom = min(max(zoom + dy / 10, 0.5), 3)
            case .controllerAdded(let id, let name): print("controller \(id): \(name)")
            case .controllerButton(_, .start, down: true): paused.toggle()
            default: break
            }
        }
    }

    /// Where the player steers now, from whatever is held.
    func steering() -> Point {
        var steer = Point(x: Keyboard.axis(.left, .right), y: Keyboard.axis(.up, .down))   // held now: -1, 0, 1
        if Keyboard.isDown(.space) || Keyboard.modifiers.contains(.shift) { steer = steer * 2 }
        if let target, Mouse.isDown(.left) { steer = target - current.position }
        for id in GameControllers.connected {   // ids of the pads plugged in
            steer += Point(x: GameControllers.value(of: .leftX, on: id), y: GameControllers.value(of: .leftY, on: id))
            if GameControllers.isDown(.a, on: id) { steer = steer * 2 }
        }
        return steer
    }

    // MARK: Sound

    func playSound() {
        if let reason = Sound.offReason { print("no sound: \(reason)") }   // no device: the game runs on, silent
        sprites.beep.volume = 0.6                                       // 0 silent ... 1 as recorded
        sprites.beep.play()                                             // now, on a free channel
        if let music = try? Music(file: "theme.ogg") {                  // OGG, MP3, WAV, ... (SDL2_mixer)
            Music.volume = 0.4
            music.play()                                                // loops until Music.stop()
        }
    }

    // MARK: Timing and caps

    func setRate(_ key: Key, _ loop: FrameLoop) {
        switch key {
        case .digit(0): window.rateLimit = .displayRate   // a frame every refresh (the default)
        case .digit(3): window.rateLimit = .cap(30)       // at most 30: the highest even rate <= 30
        case .digit(4): window.rateLimit = .range(FrameRateRange(minimum: 40, maximum: 60, preferred: 50))
        case .a: window.rateLimit = .adaptive             // the highest rate the game's work sustains
        case .u: window.rateLimit = .uncapped             // vsync off, no pacing: as fast as it goes
        case .l: loop.latency = loop.latency == .low ? .smooth : .low   // input read just in time
        case .r: print(window.evenFrameRates)             // an FPS menu's caps: 60 Hz gives [60, 30, 20, 15, 12, 10]
        case .p: window.pacingSpinBudget = 0             // pacing by sleep alone: least CPU, wake-ups a little late
        default: break
        }
    }

    // MARK: Drawing, text and images

    func draw(_ ship: Point) {
        let renderer = window.renderer
        renderer.clear(.black)                                          // named colours, or Color(r, g, b, a)
        renderer.fill(Rect(x: 0, y: 500, width: 960, height: 40), Color(hex: 0x203040))
        renderer.fill(Box(center: Point(x: 480, y: 60), width: 200, height: 8), .orange.withAlpha(160))
        renderer.outline(Rect(x: 4, y: 4, width: 952, height: 532), .darkGray)
        renderer.line(from: Point(x: 0, y: 500), to: Point(x: 960, y: 500), .lightGray)
        renderer.line(from: Point(x: 40, y: 480), to: Point(x: 200, y: 440), .yellow, thickness: 4)
        renderer.fillCircle(center: Point(x: 860, y: 100), radius: 30, .cyan)
        renderer.outlineCircle(center: Point(x: 860, y: 100), radius: 40, .white, thickness: 2)
        let rock = [Point(x: 700, y: 380), Point(x: 760, y: 360), Point(x: 740, y: 400), Point(x: 780, y: 440),
                    Point(x: 710, y: 430)]                              // any simple polygon, concave too
        renderer.fillPolygon(rock, .brown)
        renderer.outlinePolygon(rock, .lightGray, thickness: 2)
        let frame = paused ? 1 : 0                                      // one 32x32 cell of the sprite sheet
        renderer.draw(sprites.ships, source: Rect(x: frame * 32, y: 0, width: 32, height: 32),
                      in: Box(center: ship, width: 32 * zoom, height: 32 * zoom), rotation: current.heading)
        renderer.draw(sprites.ships, source: Rect(x: 0, y: 0, width: 32, height: 32),
                      in: Rect(x: 900, y: 504, width: 32, height: 32), flip: .vertical)
        renderer.draw(sprites.ships, source: Rect(x: 32, y: 0, width: 32, height: 32),   // a red, half-transparent ghost
                      in: Box(center: ship + Point(x: 6, y: 6), width: 32, height: 32), tint: Color(255, 80, 80, 128))
        let score = "frames \(frames)"
        text.draw(score, x: 960 - text.width(of: score) - 12, y: 12, color: .white)
        text.draw(paused ? "paused" : "", x: 12, y: 500 + (40 - text.lineHeight) / 2)
        text.draw("LEVEL 1", x: 480 - text.width(of: "LEVEL 1", size: 48) / 2, y: 200, color: .yellow, size: 48)
        let pointer = Mouse.position                                    // the window's pixels, unscaled
        renderer.inWindowPixels { text.draw("pointer \(pointer.x), \(pointer.y)", x: 12, y: 160, color: .gray) }
        text.endFrame()                                                 // once a frame: drops unused strings
        if showsStatistics { window.drawStatistics(x: 12, y: 12) }      // last: over everything, in window pixels
    }

    // MARK: Statistics

    func saveScreenshot() {
        try? window.renderer.readPixels().saveBMP(to: "screenshot.bmp")   // the frame drawn so far
    }

    func report() {
        let statistics = window.statistics                              // every frame, from its glass time
        if let fps = statistics.achievedFPS { print(String(format: "%.1f FPS", fps)) }   // over the last second
        print("late \(statistics.lateCount), hitch ratio \(statistics.hitchRatio) ms/s")
        print(statistics.rateExplanation ?? "")                         // why the rate is what it is
        print(statistics.runSummary)                                    // the whole run in one line
    }
}

// MARK: - Raw SDL

/// What Cadence does not wrap: SDL's own calls on the window's handles.
func useRawSDL(_ window: GameWindow) {
    SDL_SetWindowMinimumSize(window.window.handle, 480, 270)
    SDL_ShowCursor(SDL_DISABLE)
}

// MARK: - Run

var arguments = CommandLine.arguments.dropFirst(), frameLimit: Int?
if arguments.popFirst() == "--frames", let n = arguments.popFirst().flatMap({ Int($0) }), n > 0 { frameLimit = n }
do {
    let window = try openWindow()
    useRawSDL(window)
    let game = try Game(window, frameLimit: frameLimit)
    window.run(game)
    game.report()
    window.shutdown()
} catch {
    print("cannot start: \(error)")
    exit(1)
}
