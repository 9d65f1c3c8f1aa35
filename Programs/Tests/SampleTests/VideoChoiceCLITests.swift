import Testing

@Suite("spinning-sprite --video")
struct VideoChoiceCLITests {
    @Test("An unknown choice exits 64 naming the flag and the choices")
    func unknownChoice() throws {
        let result = try Subprocess.run("spinning-sprite", ["--video", "metal", "--duration", "1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--video: \"metal\"") && result.stderr.contains("auto, wayland or x11"), "\(result.stderr)")
    }

    @Test("--video x11 under Xvfb runs in an X11 window on the X Present clock")
    func x11UnderXvfb() throws {
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x720x24", binary, "--video", "x11", "--window", "640x360", "--frames", "30",
        ], environment: ["SDL_VIDEODRIVER": "", "WAYLAND_DISPLAY": ""], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("display clock: X Present MSC/UST"), "\(result.stdout)")
    }
}
