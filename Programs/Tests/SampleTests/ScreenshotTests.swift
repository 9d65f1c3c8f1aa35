import Foundation
import Testing

@Suite("What the sample shows")
struct ScreenshotTests {
    private func isBackground(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
        Int(p.r) < 40 && Int(p.g) < 40 && Int(p.b) < 50
    }

    @Test("A headless screenshot shows the sprite, the slider and text")
    func headlessScreenshot() throws {
        let dir = try Subprocess.temporaryDirectory()
        let path = dir.appendingPathComponent("s.bmp").path
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "30", "--screenshot", path])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try BMPImage(path: path)
        #expect(image.width == 1280 && image.height == 720)
        // The sprite at the centre: mostly not background, in several colours.
        let centre = image.region(x: 590, y: 310, width: 100, height: 100)
        #expect(centre.filter { !isBackground($0) }.count > centre.count / 2)
        let hues = Set(centre.map { "\($0.r / 64)\($0.g / 64)\($0.b / 64)" })
        #expect(hues.count >= 3)
        // The slider's knob (gold) along the bottom.
        let bottom = image.region(x: 0, y: 620, width: 1280, height: 100)
        #expect(bottom.contains { $0.r > 240 && $0.g > 180 && $0.g < 210 && $0.b < 80 })
        // Text: light glyph pixels inside the dark overlay panel, top left.
        let panel = image.region(x: 12, y: 12, width: 500, height: 120)
        #expect(panel.filter { $0.r > 200 && $0.g > 200 && $0.b > 200 }.count > 300)
    }

    @Test("A real X11 window under Xvfb: synthetic keys and a mouse drag move the slider and change the rate")
    func xvfbWindowWithSyntheticInput() throws {
        let dir = try Subprocess.temporaryDirectory()
        let trace = dir.appendingPathComponent("x.csv").path
        let shot = dir.appendingPathComponent("x.bmp").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x800x24", binary,
            "--fps", "60", "--vsync", "off", "--duration", "3",
            "--input-script", "0.5:key=right,1:key=shift+right,1.5:drag=90,2:key=1,2.5:key=a",
            "--trace", trace, "--screenshot", shot,
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let caps = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",")[5] }
        var sequence: [Substring] = []
        for cap in caps where sequence.last != cap { sequence.append(cap) }
        #expect(sequence == ["60", "61", "71", "90", "30", "adaptive"])
        #expect(try BMPImage(path: shot).width == 1280)
    }

    @Test("A window asked larger than the desktop opens inside it (Xvfb 1280x720, --window 1920x1080)")
    func windowFitsTheDesktop() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shot = dir.appendingPathComponent("fit.bmp").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x720x24", binary, "--window", "1920x1080", "--frames", "10", "--screenshot", shot,
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try BMPImage(path: shot)
        #expect(image.width <= 1280 && image.height <= 720 - 32, "\(image.width)x\(image.height)")
        #expect(image.width >= 640 && image.height >= 360)
    }
}
