import Foundation
import Testing

@Suite("spinning-sprite command line")
struct SpinningSpriteCLITests {
    @Test("Malformed values exit 64 and name the flag", arguments: [
        ["--fps", "-5"], ["--fps", "0.0.1"], ["--fps", "nan"], ["--fps", "inf"], ["--fps", "1001"], ["--fps", "fast"],
        ["--simulate-display", "vrr:144-48"], ["--simulate-display", "fixed:0"], ["--simulate-display", "fixed:-60"],
        ["--simulate-display", "crt:60"], ["--simulate-display", "fixed:abc"],
        ["--fps-schedule", "abc"], ["--fps-schedule", "1:2000"], ["--fps-schedule", "-1:30"],
        ["--refresh-schedule", "1:fixed:0", "--simulate-display", "fixed:60"],
        ["--hitch", "1:0"], ["--hitch", "1:-5"], ["--hitch", "x:5"],
        ["--work-schedule", "0:nan"], ["--duration", "0"], ["--duration", "-1"], ["--duration", "inf"],
        ["--frames", "0"], ["--frames", "2.5"], ["--spin-speed", "nan"], ["--window", "0x720"], ["--window", "big"],
        ["--vsync", "sometimes"], ["--vrr", "maybe"], ["--vrr-range", "144-48"], ["--vrr-range", "0-60"],
        ["--input-script", "1:key=??"], ["--trace", "t.txt"], ["--latency", "lowest"], ["--latency", ""],
        ["--input-script", "0.5:key=right", "--simulate-display", "fixed:60"],
    ])
    func malformed(arguments: [String]) throws {
        // If a bad value were accepted, the run would be one headless (or simulated) frame.
        var extra = arguments.contains("--simulate-display") ? [] : ["--headless"]
        if !arguments.contains("--frames") && !arguments.contains("--duration") { extra += ["--frames", "1"] }
        let result = try Subprocess.run("spinning-sprite", arguments + extra)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(arguments[0]), "\(arguments) message: \(result.stderr)")
    }

    @Test func helpDocumentsEveryFlagWithAnExample() throws {
        let result = try Subprocess.run("spinning-sprite", ["--help"])
        #expect(result.status == 0)
        // Each option's entry runs from its line to the next option's; every one has an example.
        let options = result.stdout.components(separatedBy: "\n  --").dropFirst()
        let entries = Dictionary(options.map { ("--" + $0.prefix { $0 != " " && $0 != "\n" }, $0) },
                                 uniquingKeysWith: { a, _ in a })
        for flag in ["--headless", "--simulate-display", "--fullscreen", "--fps", "--vsync", "--vrr", "--vrr-range",
                     "--spin-speed", "--fps-schedule", "--refresh-schedule", "--hitch", "--work-schedule",
                     "--input-script", "--latency", "--duration", "--frames", "--screenshot", "--trace", "--window", "--sprite"] {
            let entry = try #require(entries[flag], "help lacks \(flag)")
            #expect(entry.contains("e.g."), "\(flag) has no example")
        }
    }

    @Test func unwritableTracePathFailsBeforeTheRun() throws {
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--trace", "/nonexistent-dir/t.csv"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--trace"))
        #expect(result.stdout.isEmpty)
    }

    @Test func unwritableScreenshotPathFailsBeforeTheRun() throws {
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "5", "--screenshot", "/nonexistent-dir/s.bmp"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--screenshot"))
    }

    @Test func noDisplayServerSaysHowToRunHeadless() throws {
        let result = try Subprocess.run("spinning-sprite", ["--frames", "5"],
                                        environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--headless"))
        #expect(result.stderr.contains("xvfb-run"))
    }

    @Test func missingSpriteNamesThePath() throws {
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "5", "--sprite", "/tmp/no-such-sprite.bmp"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/tmp/no-such-sprite.bmp"))
    }

    @Test func corruptSpriteNamesThePath() throws {
        let dir = try Subprocess.temporaryDirectory()
        let path = dir.appendingPathComponent("corrupt.bmp").path
        try Data("BM this is not a bitmap".utf8).write(to: URL(fileURLWithPath: path))
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "5", "--sprite", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(path))
    }
}
