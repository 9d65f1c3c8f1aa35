import ArgumentParser
import Cadence
import CadenceSDL
import Foundation

@main
struct SpinningSprite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spinning-sprite",
        abstract: "A sprite spinning at a steady rate."
    )

    @Flag(help: "Render offscreen with the software renderer; no display server needed.")
    var headless = false

    @Option(help: "Quit after this many frames, e.g. --frames 120.")
    var frames: Int?

    @Option(help: "Save the last frame as a BMP, e.g. --screenshot out.bmp.")
    var screenshot: String?

    func run() throws {
        let session = try SDLSession(videoDriver: headless ? "offscreen" : nil)
        defer { session.shutdown() }
        let window = try Window(title: "Cadence — spinning sprite", width: 1280, height: 720)
        let renderer = try Renderer(window: window, software: headless, vsync: .on)
        let sprite = try Texture(bmpFile: "Assets/sprite.bmp", renderer: renderer)
        let clock = MonotonicClock()
        let start = clock.now
        var frame = 0
        var running = true
        while running {
            for event in EventPump.poll() where event == .quit { running = false }
            let t = TimeUnit.seconds(clock.now - start)
            renderer.clear(Color(18, 20, 28))
            let (w, h) = renderer.outputSize
            renderer.draw(sprite, in: Rect(x: w / 2 - 128, y: h / 2 - 128, width: 256, height: 256), rotation: 90 * t)
            frame += 1
            let last = frames.map { frame >= $0 } ?? false
            if last, let screenshot { try renderer.readPixels().saveBMP(to: screenshot) }
            renderer.present()
            if last { running = false }
            if headless { clock.sleep(until: start + Int64(frame) * 16_666_667) }
        }
    }
}
