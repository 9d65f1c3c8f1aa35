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
        ["--input-script", "1:key=??"], ["--spin-speed", "-90"], ["--frames", "-3"], ["--window", "320x200"],
        ["--input-script", "1:key=??"], ["--trace", "t.txt"], ["--latency", "lowest"], ["--latency", ""],
        ["--input-script", "0.5:key=right", "--simulate-display", "fixed:60"], ["--input-script", "1:drag=1001"],
        ["--input-script", "nan:key=a"],
    ])
    func malformed(arguments: [String]) throws {
        // If a bad value were accepted, the run would be one headless (or simulated) frame.
        var extra = arguments.contains("--simulate-display") ? [] : ["--headless"]
        if !arguments.contains("--frames") && !arguments.contains("--duration") { extra += ["--frames", "1"] }
        let result = try Subprocess.run("spinning-sprite", arguments + extra)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(arguments[0]), "\(arguments) message: \(result.stderr)")
    }

    @Test("A flag that takes one word of a set says which words, in any case accepted", arguments: [
        ("--vsync", "on, off or adaptive"), ("--video", "auto, wayland or x11"), ("--vrr", "auto, on or off"),
        ("--latency", "smooth or low"),
    ])
    func wordFlags(flag: String, words: String) throws {
        let result = try Subprocess.run("spinning-sprite", [flag, "sometimes", "--frames", "1"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("\(flag): \"sometimes\" is not valid; expected \(words)"), "\(result.stderr)")
        // The first word in capitals runs (--video would open a display: its parse above is the test).
        guard flag != "--video" else { return }
        let first = String(words.prefix { $0.isLetter }).uppercased()
        let upper = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--duration", "0.1", flag, first])
        #expect(upper.status == 0, "\(flag) in capitals: \(upper.stderr)")
    }

    @Test("A schedule whose times go back (or repeat) exits 64 naming the flag and the time", arguments: [
        (["--fps-schedule", "2:30,1:60"], "lists 1 s after 2 s"),
        (["--fps-schedule", "1:30,1:60"], "lists 1 s twice"),
        (["--refresh-schedule", "3:fixed:60,2.5:fixed:120", "--simulate-display", "fixed:60"], "lists 2.5 s after 3 s"),
        (["--work-schedule", "0:4,5:11,4:2"], "lists 4 s after 5 s"),
        (["--hitch", "1.5:50,0.5:20"], "lists 0.5 s after 1.5 s"),
        (["--input-script", "2:key=a,1:key=b"], "lists 1 s after 2 s"),
    ] as [([String], String)])
    func schedulesOutOfOrder(arguments: [String], message: String) throws {
        let extra = arguments.contains("--simulate-display") ? ["--duration", "4"] : ["--headless", "--frames", "1"]
        let result = try Subprocess.run("spinning-sprite", arguments + extra)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(arguments[0]) && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no run")
    }

    @Test("Several scripted actions may share a time")
    func inputScriptActionsAtOneTime() throws {
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "2",
                                                            "--input-script", "0:key=g,0:key=g"])
        #expect(result.status == 0, "\(result.stderr)")
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

    @Test("A missing sprite exits 66 (no input) naming the file")
    func missingSpriteNamesThePath() throws {
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "5", "--sprite", "/tmp/no-such-sprite.bmp"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/tmp/no-such-sprite.bmp"))
    }

    @Test func corruptSpriteNamesThePath() throws {
        let dir = try Subprocess.temporaryDirectory()
        let path = dir.appendingPathComponent("corrupt.bmp").path
        try Data("BM this is not a bitmap".utf8).write(to: URL(fileURLWithPath: path))
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "5", "--sprite", path])
        #expect(result.status == 65, "bad data")
        #expect(result.stderr.contains(path))
    }

    @Test("Negative numbers say which bound they crossed", arguments: [
        (["--fps", "-1"], "must be at least 1"), (["--spin-speed=-90"], "must be at least 0"),
        (["--frames", "-3"], "must be at least 1"), (["--duration", "-2"], "must be more than 0"),
    ])
    func negativeNumbers(arguments: [String], bound: String) throws {
        let result = try Subprocess.run("spinning-sprite", arguments + ["--simulate-display", "fixed:60"])
        #expect(result.status == 64)
        #expect(result.stderr.contains(bound), "\(arguments): \(result.stderr)")
    }

    @Test("A flag that would do nothing in a simulation is a usage error", arguments: [
        ["--headless"], ["--sprite", "Assets/sprite.bmp"],
    ])
    func flagsWithoutEffectInSimulation(arguments: [String]) throws {
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--duration", "1"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(arguments[0]), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no run")
    }

    @Test("An output path naming a directory exits 73 before the run", arguments: ["--screenshot", "--trace"])
    func directoryAsOutput(flag: String) throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A directory whose name passes the extension check.
        let path = dir.appendingPathComponent(flag == "--trace" ? "d.csv" : "d.bmp").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--duration", "30", flag, path], timeout: 20)
        #expect(result.status == 73)
        #expect(result.stderr.contains("directory"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no run")
    }

    @Test("A failed start leaves an existing trace as it was, and no temporary file", arguments: [
        (["--frames", "5"], ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""], Int32(1)),
        (["--headless", "--frames", "5", "--sprite", "BAD"], [:], Int32(65)),
    ])
    func failedStartKeepsTheTrace(arguments: [String], environment: [String: String], status: Int32) throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.csv").path
        let sprite = dir.appendingPathComponent("bad.bmp").path
        try Data("BM not a bitmap".utf8).write(to: URL(fileURLWithPath: sprite))
        let earlier = "frame,timestamp\n0,0.0\n"
        try earlier.write(toFile: trace, atomically: true, encoding: .utf8)
        let result = try Subprocess.run("spinning-sprite", arguments.map { $0 == "BAD" ? sprite : $0 } + ["--trace", trace],
                                        environment: environment)
        #expect(result.status == status, "\(result.stderr)")
        #expect(try String(contentsOfFile: trace, encoding: .utf8) == earlier)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["bad.bmp", "t.csv"])
    }

    @Test("--help fits 80 columns, and no option's help wraps mid-example")
    func helpFitsEightyColumns() throws {
        let result = try Subprocess.run("spinning-sprite", ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
        // An option's help starts in column 27; a line indented that far continues the
        // help above it, which is only right when the option's name filled its own line.
        let helpColumn = String(repeating: " ", count: 26)
        for (above, line) in zip(lines, lines.dropFirst()) where line.hasPrefix(helpColumn) {
            let nameOnly = above.hasPrefix("  -") && !above.dropFirst(2).contains("  ")
            #expect(nameOnly, "wrapped help: \(above) / \(line)")
        }
        // Every example is whole on its line.
        let examples = lines.drop { $0 != "Examples:" }.dropFirst().prefix { !$0.isEmpty }
        #expect(examples.count >= 3)
        #expect(examples.allSatisfy { $0.hasPrefix("  spinning-sprite") }, "\(examples)")
    }
}
