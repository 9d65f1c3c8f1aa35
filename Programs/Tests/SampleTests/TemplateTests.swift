import Foundation
import Testing

/// `template [--frames N] [--screenshot out.bmp]`, the file to fork, run as a user would.
@Suite("The template")
struct TemplateTests {
    @Test("In a real X11 window under Xvfb it runs 60 frames, exits 0, and draws the world where its updates put it")
    func runsInARealWindow() throws {
        let shot = try Subprocess.temporaryDirectory().appendingPathComponent("template.bmp").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("template").path
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x800x24", binary, "--frames", "60", "--screenshot", shot,
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        // The run's summary, printed as its readable line.
        #expect(result.stdout.contains("\nframes 60, achieved "), "\(result.stdout)")
        // "60 frames, <updates> updates, <dropped> dropped"
        let counts = result.stdout.split(separator: "\n").last!.split(separator: " ").compactMap { Int($0) }
        try #require(counts.count == 3 && counts[0] == 60, "\(result.stdout)")
        let updates = Double(counts[1])
        try #require(updates >= 1 && updates < 130, "the ball bounces after 2.26 s of updates")

        let image = try BMPImage(path: shot)
        #expect((image.width, image.height) == (960, 540))
        // No input: the 48 px player stays centred on (480, 270).
        let blue = { (p: (r: UInt8, g: UInt8, b: UInt8)) in p == (80, 160, 255) }
        #expect(image.region(x: 456, y: 246, width: 48, height: 48).allSatisfy(blue))
        #expect(image.region(x: 0, y: 0, width: 960, height: 540).filter(blue).count == 48 * 48)
        // The 20 px ball starts at (120, 90) and moves (260, 190) px/s. Drawn
        // between its last two states, it lies between where `updates − 1`
        // and `updates` steps of 1/60 s put it (to the pixel).
        let orange = (0..<540).flatMap { y in (0..<960).map { (x: $0, y: y) } }
            .filter { image.pixel($0.x, $0.y) == (240, 180, 60) }
        try #require(orange.count == 20 * 20)
        let corner = (x: Double(orange.map(\.x).min()!), y: Double(orange.map(\.y).min()!))
        for (axis, start, speed) in [(corner.x, 120.0, 260.0), (corner.y, 90.0, 190.0)] {
            let range = (start + speed * (updates - 1) / 60 - 1)...(start + speed * updates / 60 + 1)
            #expect(range.contains(axis), "ball at \(axis), expected within \(range)")
        }
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
        let blue = (0..<540).flatMap { y in (0..<960).map { (x: $0, y: y) } }.filter { image.pixel($0.x, $0.y) == (80, 160, 255) }
        try #require(blue.count == 48 * 48, "the player, 48 px square")
        // It started centred on (480, 270): its top-left corner at (456, 246).
        #expect(blue.map(\.x).min()! > 456, "moved right")
        #expect(blue.map(\.y).min()! == 246, "not up or down")
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
