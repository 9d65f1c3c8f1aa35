import Foundation
import Testing

/// `template [--frames N] [--screenshot out.bmp] [--window WxH]`, the file to fork, run as a user would.
@Suite("The template")
struct TemplateTests {
    @Test("In a real X11 window under Xvfb it runs 75 frames, exits 0, and draws the world where its updates put it")
    func runsInARealWindow() throws {
        let shot = try Subprocess.temporaryDirectory().appendingPathComponent("template.bmp").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("template").path
        // 75 frames at Xvfb's 60.04 Hz (fewer a second on a busy machine, each
        // then running more updates) run at least 73 updates of 1/60 s, which
        // put the ball's left edge at x ≥ 436: clear of the statistics panel,
        // drawn over everything from (12, 32) to about (376, 288). After 60
        // frames it lay at the panel's corner, and on a loaded machine the
        // panel hid 43 of its pixels.
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x800x24", binary, "--frames", "75", "--screenshot", shot,
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        // The run's summary, printed as its readable line.
        #expect(result.stdout.contains("\nframes 75, achieved "), "\(result.stdout)")
        // "75 frames, <updates> updates, <dropped> dropped"
        let counts = result.stdout.split(separator: "\n").last!.split(separator: " ").compactMap { Int($0) }
        try #require(counts.count == 3 && counts[0] == 75, "\(result.stdout)")
        let updates = Double(counts[1])
        try #require(updates >= 1 && updates < 130, "the ball bounces after 2.26 s of updates")

        let image = try BMPImage(path: shot)
        #expect((image.width, image.height) == (960, 540))
        // No input: the player, a five-pointed star of radii 26 and 11.7 (ten triangles of
        // ½·26·11.7·sin 36°: 894 px², give or take half its 179 px edge), stays centred on (480, 270).
        let blue = Self.pixels(image, (80, 160, 255))
        #expect(abs(blue.count - 894) < 90, "\(blue.count) star pixels")
        let star = Self.centre(blue)
        #expect(abs(star.x - 480) <= 1 && abs(star.y - 270) <= 1, "star centred at \(star)")
        // The ball, a circle of radius 10 (314 px²) about its position + (10, 10), starts at (120, 90)
        // and moves (260, 190) px/s. Drawn between its last two states, it lies between where
        // `updates − 1` and `updates` steps of 1/60 s put it (to the pixel).
        let orange = Self.pixels(image, (240, 180, 60))
        try #require(abs(orange.count - 314) < 32, "\(orange.count) ball pixels")
        let ball = Self.centre(orange)
        for (axis, start, speed) in [(ball.x - 10, 120.0, 260.0), (ball.y - 10, 90.0, 190.0)] {
            let range = (start + speed * (updates - 1) / 60 - 1)...(start + speed * updates / 60 + 1)
            #expect(range.contains(axis), "ball at \(axis), expected within \(range)")
        }
    }

    /// Every pixel of `image` exactly `colour`.
    static func pixels(_ image: BMPImage, _ colour: (UInt8, UInt8, UInt8)) -> [(x: Int, y: Int)] {
        (0..<image.height).flatMap { y in (0..<image.width).map { (x: $0, y: y) } }.filter { image.pixel($0.x, $0.y) == colour }
    }

    /// The mean of the pixels' centres: a symmetric shape's centre.
    static func centre(_ pixels: [(x: Int, y: Int)]) -> (x: Double, y: Double) {
        let n = Double(max(1, pixels.count))
        return (pixels.map { Double($0.x) + 0.5 }.reduce(0, +) / n, pixels.map { Double($0.y) + 0.5 }.reduce(0, +) / n)
    }

    @Test("In a 1280x600 window the 960x540 game is letterboxed: the screenshot is the window's, the game scaled by 10/9 between bars 107 px wide")
    func letterboxedScreenshot() throws {
        let shot = try Subprocess.temporaryDirectory().appendingPathComponent("letterbox.bmp").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("template").path
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x800x24", binary, "--frames", "20", "--window", "1280x600", "--screenshot", shot,
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try BMPImage(path: shot)
        try #require((image.width, image.height) == (1280, 600))
        // Scale min(1280/960, 600/540) = 10/9: the game is 1066.7x600, (1280 − 1066.7)/2 = 106.7 px from the
        // left. The player's centre (480, 270) lands at (106.7 + 533.3, 300); its star covers (10/9)² of 894 px².
        let blue = Self.pixels(image, (80, 160, 255))
        let expectedArea: Double = 894.0 * 100 / 81
        #expect(abs(Double(blue.count) - expectedArea) < 100, "\(blue.count) star pixels")
        let star = Self.centre(blue)
        #expect(abs(star.x - 640) <= 1.5 && abs(star.y - 300) <= 1, "star centred at \(star)")
        // The bars hold only the clear colour, to the window's edges (the left one below the statistics panel).
        let bars = [(x: 1175, y: 0, width: 105, height: 600), (x: 0, y: 400, width: 105, height: 200)]
        let stray = bars.flatMap { bar in
            (bar.y..<bar.y + bar.height).flatMap { y in (bar.x..<bar.x + bar.width).map { (x: $0, y: y) } }
        }.filter { image.pixel($0.x, $0.y) != (18, 20, 28) }
        #expect(stray.isEmpty, "\(stray.count) pixels in the bars, first \(stray.prefix(3).map { "(\($0.x), \($0.y)) = \(image.pixel($0.x, $0.y))" })")
    }

    @Test("A held arrow key moves the player: the keyboard's state, read through a real X server, steers it right and not down")
    func heldKeyMovesThePlayer() throws {
        let shot = try Subprocess.temporaryDirectory().appendingPathComponent("keys.bmp").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("template").path
        // Right held for half a second through the X server (xdotool's XTEST), a second after the start.
        let script = """
            "$1" --frames 200 --screenshot "$2" > /dev/null &
            game=$!
            sleep 1.2
            id="$(xdotool search --name 'Cadence template' | head -n 1)"
            xdotool windowfocus --sync "$id"
            xdotool keydown Right; sleep 0.5; xdotool keyup Right
            wait "$game"
            """
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x800x24", "sh", "-c", script, "sh", binary, shot,
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try BMPImage(path: shot)
        let blue = Self.pixels(image, (80, 160, 255))
        try #require(abs(blue.count - 894) < 90, "the player, a star of 894 px²")
        // It started centred on (480, 270).
        let star = Self.centre(blue)
        #expect(star.x > 481, "moved right: \(star)")
        #expect(abs(star.y - 270) <= 1, "not up or down: \(star)")
    }

    @Test("Ctrl-C ends the template as docs/command-line.md's exit table says: exit 0 after its closing line")
    func interruptExitsZero() throws {
        // Started with no signal blocked: the test's thread blocks some, and a child inherits that.
        let binary = Subprocess.productsDirectory.appendingPathComponent("template").path
        let result = try Subprocess.runExecutable("/usr/bin/python3", [
            "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
            binary, "--frames", "1000000",
        ], environment: ["SDL_VIDEODRIVER": "offscreen"], timeout: 30, signal: (after: 0.5, number: SIGINT))
        #expect(result.status == 0, "\(result.stderr)")
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasSuffix("dropped") && !last.hasPrefix("1000000 frames"), "\(result.stdout)")
    }

    @Test("Bad arguments exit 64, an unwritable screenshot 73, and no display 1, each with a message",
          arguments: [(["--frames", "x"], 64), (["--frames"], 64), (["--frames", "0"], 64), (["--bogus"], 64),
                      (["--screenshot", "/nonexistent/dir/x.bmp"], 73), (["--frames", "3"], 1)] as [([String], Int32)])
    func badInput(arguments: [String], status: Int32) throws {
        let result = try Subprocess.run("template", arguments,
                                        environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
        #expect(result.status == status)
        #expect(result.stderr.contains("template: "), "\(result.stderr)")
        if status == 1 {
            // What is missing and what to run, as the sample says it.
            #expect(result.stderr.contains("DISPLAY and WAYLAND_DISPLAY are unset"), "\(result.stderr)")
            #expect(result.stderr.contains("xvfb-run -a template"), "\(result.stderr)")
        }
    }

    @Test("--help prints the usage and exits 0")
    func help() throws {
        let result = try Subprocess.run("template", ["--help"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("usage: template [--frames N]"), "\(result.stdout)")
    }
}
