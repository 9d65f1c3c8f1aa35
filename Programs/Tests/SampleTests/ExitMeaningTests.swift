import CadenceTestFixtures
import Foundation
import Testing

/// Every exit means what the table in docs/command-line.md says, in every mode, and what the
/// programs print can be true.
@Suite("Exits and figures that mean what they say")
struct ExitMeaningTests {
    @Test("--frames and --duration are bounded, so virtual time cannot overflow: exit 64 past the bound",
          arguments: [["--frames", "9223372036854775807"], ["--frames", "100000001"], ["--frames", "99999999999999999999"],
                      ["--duration", "1000001"]])
    func runLengthBounded(arguments: [String]) throws {
        // Accepted, the first would run for minutes and trap; the bound answers at once.
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "unknown", "--fps", "1",
                                                            "--work-schedule", "0:10000"] + arguments, timeout: 20)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("\(arguments[0]): \(arguments[1]) must be at most"), "\(result.stderr)")
    }

    private func hitchRatio(_ stdout: String) -> Double? {
        guard let range = stdout.range(of: "hitch ratio ") else { return nil }
        return Double(stdout[range.upperBound...].prefix { $0 != " " })
    }

    @Test("The hitch ratio is at most 1000 ms/s and counts a lone late frame")
    func hitchRatioIsPossible() throws {
        // 60 Hz, 100 ms of work in each of 2 frames: both late, the ratio below 1000 ms/s.
        let two = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--frames", "2",
                                                         "--work-schedule", "0:100"])
        #expect(two.status == 0)
        let twoRatio = try #require(hitchRatio(two.stdout), "\(two.stdout)")
        #expect(twoRatio > 0 && twoRatio <= 1_000, "\(two.stdout)")
        // One frame a second late: late 1, and a second late in about a second of run.
        let one = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--frames", "1",
                                                         "--work-schedule", "0:1000"])
        #expect(one.stdout.contains("late 1,"), "\(one.stdout)")
        let oneRatio = try #require(hitchRatio(one.stdout), "\(one.stdout)")
        #expect(oneRatio > 900 && oneRatio <= 1_000, "\(one.stdout)")
    }

    /// The sprite's failures, each with its exit: 65 for a file that is not a BMP, 66 for no file to read.
    private static func spriteCases(in dir: URL) throws -> [(path: String, status: Int32)] {
        let notBMP = dir.appendingPathComponent("passwd.bmp"), empty = dir.appendingPathComponent("empty.bmp")
        let directory = dir.appendingPathComponent("folder.bmp")
        try Data("root:x:0:0:root:/root:/bin/bash\n".utf8).write(to: notBMP)
        try Data().write(to: empty)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return [(notBMP.path, 65), (empty.path, 65), (directory.path, 66), (dir.appendingPathComponent("none.bmp").path, 66)]
    }

    @Test("A bad sprite exits the same way in every mode: not a BMP or empty 65, a directory or missing 66",
          arguments: [["--headless", "--frames", "3"], ["--simulate-display", "fixed:60", "--frames", "3"]])
    func spriteExits(mode: [String]) throws {
        let dir = try Subprocess.temporaryDirectory()
        for (path, status) in try Self.spriteCases(in: dir) {
            let shot = dir.appendingPathComponent("s.bmp").path
            let result = try Subprocess.run("spinning-sprite", mode + ["--sprite", path, "--screenshot", shot])
            #expect(result.status == status, "\(mode) \(path): \(result.stderr)")
            #expect(result.stderr.contains(path))
        }
    }

    @Test("DISPLAY naming a server that is not there says so, not that DISPLAY is unset")
    func unreachableDisplay() throws {
        let display = Subprocess.unservedXDisplay
        let result = try Subprocess.run("spinning-sprite", ["--frames", "3"],
                                        environment: ["DISPLAY": display, "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
        #expect(result.status == 1)
        #expect(result.stderr.contains(display) && result.stderr.contains("could not be reached"), "\(result.stderr)")
        #expect(!result.stderr.contains("unset"), "\(result.stderr)")
    }

    @Test("With no display at all the first line is the game's own message")
    func noDisplayFirstLine() throws {
        let result = try Subprocess.run("spinning-sprite", ["--frames", "3"],
                                        environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": "",
                                                      "XDG_RUNTIME_DIR": ""])
        #expect(result.status == 1)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("spinning-sprite: no display server"), "\(result.stderr)")
    }

    @Test("display-probe edid: a missing file or a directory exits 66, a file that is not an EDID 65")
    func probeExits() throws {
        let dir = try Subprocess.temporaryDirectory()
        let garbage = dir.appendingPathComponent("garbage.bin")
        try Data("not an edid".utf8).write(to: garbage)
        for (path, status) in [(dir.appendingPathComponent("missing.bin").path, Int32(66)), (dir.path, 66), (garbage.path, 65)] {
            for json in [[], ["--json"]] {
                let result = try Subprocess.run("display-probe", ["edid", path] + json)
                #expect(result.status == status, "\(path) \(json): \(result.stderr)")
            }
        }
    }

    @Test("display-probe edid: a typo in an edid-decode hex block exits 65; a header then garbage is not trustworthy, not VRR")
    func probeBadEDIDs() throws {
        let dir = try Subprocess.temporaryDirectory()
        var text = RealEDIDs.edidDecodeText(RealEDIDs.lg27GL850)
        // Block 1's first line loses one digit.
        let line = text.split(separator: "\n", omittingEmptySubsequences: false)[11]
        text = text.replacingOccurrences(of: line, with: line.dropFirst())
        let broken = dir.appendingPathComponent("broken.txt")
        try Data(text.utf8).write(to: broken)
        let typo = try Subprocess.run("display-probe", ["edid", broken.path])
        #expect(typo.status == 65, "\(typo.stdout) \(typo.stderr)")
        #expect(typo.stderr.contains("line 12"), "\(typo.stderr)")

        var generator = SystemRandomNumberGenerator()
        let garbage = dir.appendingPathComponent("garbage.bin")
        var bytes = (0..<1_024).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes.replaceSubrange(0..<9, with: [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x1E])
        bytes[0x12] = 7
        try Data(bytes).write(to: garbage)
        let probe = try Subprocess.run("display-probe", ["edid", garbage.path])
        #expect(probe.stdout.contains("variable refresh:  none (the EDID is not trustworthy"), "\(probe.stdout)")
        let json = try Subprocess.run("display-probe", ["edid", garbage.path, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["variable_refresh"] is NSNull)
        #expect(object?["not_trustworthy_because"] is String)
    }

    /// The names in `directory`, as bytes.
    private func names(in directory: URL) throws -> [[UInt8]] {
        try Subprocess.runExecutable("/usr/bin/find", [directory.path, "-mindepth", "1", "-printf", "%f\\0"])
            .stdoutBytes.split(separator: 0).map(Array.init)
    }

    @Test("File names round-trip as bytes: a trace and a screenshot named \\xff.csv and \\xfe.bmp are written under those names")
    func nonUTF8OutputNames() throws {
        let dir = try Subprocess.temporaryDirectory()
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        // The shell builds the names from bytes; Foundation's arguments could not carry them.
        let result = try Subprocess.runExecutable("/bin/bash", [
            "-c", "\"$0\" --simulate-display fixed:60 --frames 3 --trace \"$1/$(printf '\\377').csv\" "
                + "--screenshot \"$1/$(printf '\\376').bmp\"",
            binary, dir.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Set(try names(in: dir)) == [[0xFF] + Array(".csv".utf8), [0xFE] + Array(".bmp".utf8)])
    }

    @Test("--sprite opens a file whose name is not UTF-8 (\\xff.bmp), in a real run and in simulation")
    func nonUTF8SpriteName() throws {
        let dir = try Subprocess.temporaryDirectory()
        let sprite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Assets/sprite.bmp")
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        for mode in ["--headless", "--simulate-display fixed:60"] {
            // Only the name with the byte 0xFF exists: a name repaired to U+FFFD finds nothing.
            let result = try Subprocess.runExecutable("/bin/bash", [
                "-c", "cp \"$2\" \"$1/$(printf '\\377').bmp\" && \"$0\" \(mode) --frames 3 "
                    + "--sprite \"$1/$(printf '\\377').bmp\" --screenshot \"$1/shot.bmp\"",
                binary, dir.path, sprite.path,
            ])
            #expect(result.status == 0, "\(mode): \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("shot.bmp").path), "\(mode)")
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("shot.bmp"))
        }
    }

    @Test("display-probe edid opens a file whose name is not UTF-8")
    func nonUTF8InputName() throws {
        let dir = try Subprocess.temporaryDirectory()
        try Data(RealEDIDs.lg27GL850).write(to: dir.appendingPathComponent("monitor.bin"))
        let binary = Subprocess.productsDirectory.appendingPathComponent("display-probe").path
        let result = try Subprocess.runExecutable("/bin/bash", [
            "-c", "mv \"$1/monitor.bin\" \"$1/$(printf '\\377').bin\" && \"$0\" edid \"$1/$(printf '\\377').bin\"",
            binary, dir.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("27GL850"), "\(result.stdout)")
    }

    @Test("The template never truncates an existing file: a failed start and a quit before the screenshot leave it as it was")
    func templateKeepsFile() throws {
        let keep = try Subprocess.temporaryDirectory().appendingPathComponent("keep.bmp")
        try Data("KEEP\n".utf8).write(to: keep)
        let failed = try Subprocess.run("template", ["--screenshot", keep.path],
                                        environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(try String(contentsOf: keep, encoding: .utf8) == "KEEP\n")
        // SDL turns SIGTERM into a quit event: the game ends long before its
        // millionth frame. (Started with no signal blocked: the test's thread
        // blocks SIGTERM, and a child inherits that.)
        let binary = Subprocess.productsDirectory.appendingPathComponent("template").path
        let quit = try Subprocess.runExecutable("/usr/bin/python3", [
            "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
            binary, "--frames", "1000000", "--screenshot", keep.path,
        ], environment: ["SDL_VIDEODRIVER": "offscreen"], timeout: 30, signal: (after: 0.5, number: SIGTERM))
        #expect(quit.status == 0, "\(quit.stderr)")
        #expect(try String(contentsOf: keep, encoding: .utf8) == "KEEP\n")
        // And a run that reaches its frame replaces it with the screenshot.
        let done = try Subprocess.run("template", ["--frames", "3", "--screenshot", keep.path],
                                      environment: ["SDL_VIDEODRIVER": "offscreen"])
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try BMPImage(path: keep.path).width == 960)
        #expect(try FileManager.default.contentsOfDirectory(atPath: keep.deletingLastPathComponent().path) == ["keep.bmp"])
    }
}
