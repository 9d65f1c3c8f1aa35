import Foundation
import Testing

/// The sample as a player sees it, in a real X11 window under Xvfb (an X
/// server with no window manager): the X server's own account of the window's
/// size, mouse clicks sent through the X server (xdotool's XTEST events), keys,
/// and the last frame drawn.
@Suite("spinning-sprite as a player sees it")
struct PlayerViewTests {
    @Test("The window draws at its real size, reports it, and a click on the slider sets the rate under the pointer")
    func clickAfterFullscreenRoundTrip() throws {
        let dir = try Subprocess.temporaryDirectory()
        let shot = dir.appendingPathComponent("shot.bmp").path
        let trace = dir.appendingPathComponent("t.csv").path
        let geometry = dir.appendingPathComponent("geometry.txt").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        // A 1280x720 screen: the window opens 32 px lower and shorter, leaving
        // room for a title bar; F twice takes it to the whole screen and back.
        // At 3 s the X server says where the window is, and the pointer clicks
        // at (480, y) in it, y the slider track's middle for that window height.
        let script = """
            "$1" --duration 5 --input-script "0.5:key=f,1.5:key=f" --trace "$2" --screenshot "$3" &
            game=$!
            sleep 3
            id="$(xdotool search --name 'spinning sprite' | head -n 1)"
            eval "$(xdotool getwindowgeometry --shell "$id")"
            echo "$WIDTH $HEIGHT" > "$4"
            # The slider's panel is 66 px high, 6 px above the bottom; the track
            # 8 px high, 34 px below the panel's top.
            xdotool mousemove --window "$id" 480 $(( HEIGHT - 72 + 34 + 4 )) click 1
            wait "$game"
            """
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x720x24", "sh", "-c", script, "sh", binary, trace, shot, geometry,
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")

        let size = try String(contentsOfFile: geometry, encoding: .utf8).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(size.count == 2, "xdotool: \(result.stderr)")
        #expect(size == [1280, 688], "the window's size as the X server has it")
        // The last frame is drawn at the window's real size, its top rows the
        // background and the overlay's panel, not a black band above them.
        let image = try BMPImage(path: shot)
        #expect((image.width, image.height) == (size[0], size[1]))
        #expect(image.region(x: 0, y: 0, width: 1280, height: 32).allSatisfy { $0 != (0, 0, 0) })

        // The click sets the cap to the rate at x = 480 on the track: it runs
        // 30 px in from the 8 px margin, 1280 - 16 - 78 px long, 1 to 240 FPS.
        let expected = (1 + Double(480 - 38) / Double(1280 - 16 - 78) * 239).rounded()
        let caps = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").dropFirst()
            .compactMap { Double($0.split(separator: ",")[5]) }
        #expect(caps.first == 0, "the run starts at the display's rate")
        #expect(caps.last == expected, "the cap after the click: \(String(describing: caps.last)), expected \(expected)")
    }

    @Test("V offers only the vsync modes the driver has: four presses, no fallback and nothing on stderr")
    func vsyncKeyOffersEachModeOnce() throws {
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x800x24", binary, "--duration", "2",
            "--input-script", "0.3:key=v,0.6:key=v,0.9:key=v,1.2:key=v",
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("unavailable"), "\(result.stderr)")
    }

    @Test("At 640x360 nothing is drawn in the right margin above the slider: every overlay line stays inside its panel")
    func smallWindowKeepsTextInsideItsPanel() throws {
        let shot = try Subprocess.temporaryDirectory().appendingPathComponent("small.bmp").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x800x24", binary, "--window", "640x360", "--frames", "30", "--screenshot", shot,
        ], environment: ["SDL_VIDEODRIVER": ""], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try BMPImage(path: shot)
        try #require((image.width, image.height) == (640, 360))
        // Panels keep 12 px from the window's right edge; the slider's panel starts 72 px above the bottom.
        let margin = image.region(x: 629, y: 0, width: 11, height: 360 - 72)
        #expect(margin.allSatisfy { $0 == (18, 20, 28) }, "something drawn in the margin: the background is (18, 20, 28)")
    }
}
