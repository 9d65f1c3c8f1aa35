import Foundation
import Testing

/// What the user asked to save survives every fault: a full file system, a
/// directory renamed or removed mid-run, a long file name, a killed earlier
/// run. Exit 73 ("cannot create output") whenever an output is not written,
/// with the run's summary printed all the same.
@Suite("Outputs under faults")
struct OutputFaultTests {
    /// How a test makes writes fail for want of room.
    enum NoRoom: CaseIterable, CustomTestStringConvertible {
        /// A 64 KiB tmpfs of the test's own (the tests run as root).
        case smallFileSystem
        /// A 64 KiB file size limit (`prlimit --fsize`): the same write fails,
        /// with EFBIG instead of ENOSPC. Also what `smallFileSystem` falls back
        /// to where mounting is not allowed.
        case fileSizeLimit

        var testDescription: String { self == .smallFileSystem ? "a full 64 KiB tmpfs" : "a 64 KiB file size limit" }
    }

    /// What a test gets: a directory where writes run out of room, a way to
    /// leave no room at all before the run, and a runner of spinning-sprite.
    struct Room {
        let directory: URL
        /// Fills the tmpfs to its last byte; under a file size limit, where
        /// every file has the same 64 KiB from the start, does nothing.
        let fill: () throws -> Void
        let run: ([String]) throws -> Subprocess.Result
    }

    /// Runs `body` in a directory where writes run out of room as `noRoom` says.
    private func withNoRoom(_ noRoom: NoRoom, _ body: (Room) throws -> Void) throws {
        let directory = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        if noRoom == .smallFileSystem,
           try Subprocess.runExecutable("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory.path]).status == 0 {
            defer { _ = try? Subprocess.runExecutable("/bin/umount", [directory.path]) }
            let fill = { _ = try Subprocess.runExecutable("/bin/dd", ["if=/dev/zero", "of=\(directory.path)/filler", "bs=4096"]) }
            try body(Room(directory: directory, fill: fill) { try Subprocess.runExecutable(binary, $0) })
            return
        }
        try body(Room(directory: directory, fill: {}) {
            try Subprocess.runExecutable("/usr/bin/prlimit", ["--fsize=65536", binary] + $0)
        })
    }

    private func partials(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".partial") }
    }

    private func contents(_ url: URL) -> String? { try? String(contentsOf: url, encoding: .utf8) }

    @Test("A screenshot with no room: the older screenshot stays, the trace that had room is kept, exit 73 with the summary",
          arguments: NoRoom.allCases, [false, true])
    func fullDiskScreenshot(noRoom: NoRoom, fullFromStart: Bool) throws {
        try withNoRoom(noRoom) { room in
            let small = room.directory, shot = small.appendingPathComponent("s.bmp")
            try Data("OLD SCREENSHOT".utf8).write(to: shot)
            if fullFromStart { try room.fill() }
            let trace = try Subprocess.temporaryDirectory().appendingPathComponent("t.csv")
            let result = try room.run(["--simulate-display", "fixed:60", "--frames", "30",
                                  "--screenshot", shot.path, "--trace", trace.path])
            #expect(result.status == 73, "\(result.stderr)")
            #expect(result.stdout.contains("frames 30, achieved"), "the summary: \(result.stdout)")
            #expect(result.stderr.contains("s.bmp"))
            #expect(contents(shot) == "OLD SCREENSHOT", "a 960x540 BMP needs 2 MB; the old one must not be replaced")
            #expect(contents(trace)?.split(separator: "\n").count == 31, "header and 30 rows")
            #expect(partials(in: small).isEmpty)
        }
    }

    @Test("A trace with no room from the start or running out during the run: the older trace stays, exit 73 with the summary",
          arguments: NoRoom.allCases, [false, true])
    func fullDiskTrace(noRoom: NoRoom, fullFromStart: Bool) throws {
        try withNoRoom(noRoom) { room in
            let small = room.directory, trace = small.appendingPathComponent("t.csv")
            try Data("OLD TRACE\n".utf8).write(to: trace)
            if fullFromStart { try room.fill() }
            // 5000 rows of about 100 bytes: more than 64 KiB.
            let result = try room.run(["--simulate-display", "fixed:60", "--frames", "5000", "--trace", trace.path])
            #expect(result.status == 73, "\(result.stderr)")
            #expect(result.stdout.contains("frames 5000, achieved"), "the summary: \(result.stdout)")
            #expect(contents(trace) == "OLD TRACE\n")
            #expect(partials(in: small).isEmpty)
        }
    }

    @Test("The trace's directory renamed during the run: the trace lands in it, complete, and nothing is left behind")
    func directoryRenamed() throws {
        let parent = try Subprocess.temporaryDirectory()
        let original = parent.appendingPathComponent("d"), moved = parent.appendingPathComponent("moved")
        try FileManager.default.createDirectory(at: original, withIntermediateDirectories: false)
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:240", "--duration", "86400",
                                                            "--trace", original.appendingPathComponent("t.csv").path],
                                        timeout: 60, signal: (after: 1.5, number: SIGTERM)) {
            #expect(rename(original.path, moved.path) == 0)
            usleep(200_000)     // frames go on being written into the moved directory
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("frames "))
        let rows = contents(moved.appendingPathComponent("t.csv"))?.split(separator: "\n") ?? []
        #expect(rows.count > 100)
        #expect(partials(in: moved).isEmpty)
    }

    @Test("The trace's directory removed during the run: exit 73 with the summary, and no stray file")
    func directoryRemoved() throws {
        let parent = try Subprocess.temporaryDirectory()
        let directory = parent.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:240", "--duration", "86400",
                                                            "--trace", directory.appendingPathComponent("t.csv").path],
                                        timeout: 60, signal: (after: 1.5, number: SIGTERM)) {
            #expect((try? FileManager.default.removeItem(at: directory)) != nil)
            usleep(200_000)
        }
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stdout.contains("frames "))
        #expect(result.stderr.contains("t.csv"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    @Test("File names of 244 to 255 bytes work for traces and screenshots", arguments: [244, 250, 255])
    func longNames(length: Int) throws {
        let dir = try Subprocess.temporaryDirectory()
        let trace = dir.appendingPathComponent(String(repeating: "t", count: length - 4) + ".csv")
        let shot = dir.appendingPathComponent(String(repeating: "s", count: length - 4) + ".bmp")
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--frames", "3",
                                                            "--trace", trace.path, "--screenshot", shot.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(contents(trace)?.split(separator: "\n").count == 4)
        #expect(FileManager.default.fileExists(atPath: shot.path))
        #expect(partials(in: dir).isEmpty)
    }

    @Test("Partial files a killed run left are removed at the next start; a live process's are not")
    func stalePartialsRemoved() throws {
        let dir = try Subprocess.temporaryDirectory()
        // Above the kernel's largest process id (2^22): no process has it.
        let stale = dir.appendingPathComponent(".t.csv.2147483000.partial")
        let live = dir.appendingPathComponent(".t.csv.\(getpid()).partial")
        let other = dir.appendingPathComponent(".u.csv.2147483000.partial")
        for url in [stale, live, other] { try Data(count: 1 << 20).write(to: url) }
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--frames", "3",
                                                            "--trace", dir.appendingPathComponent("t.csv").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: live.path), "another process's, still running")
        #expect(FileManager.default.fileExists(atPath: other.path), "another name's")
    }
}
