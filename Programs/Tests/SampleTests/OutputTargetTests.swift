import Foundation
import Testing

/// A trace or screenshot path is written as editors and `cp` write it: a
/// symbolic link is followed (the file it names replaced, the link kept), a
/// FIFO or a character device written in place; a write that fails exits 73
/// with the summary still printed.
@Suite("Outputs through links, FIFOs and devices")
struct OutputTargetTests {
    private let simulated = ["--simulate-display", "fixed:60", "--frames", "30"]

    private func kind(_ path: String) throws -> FileAttributeType? {
        (try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType)
    }

    @Test("A trace path that is a link to a file: the file is replaced, the link kept, no partial file left")
    func symlinkedTrace() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sub = dir.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data("OLD\n".utf8).write(to: sub.appendingPathComponent("t.csv"))
        let link = dir.appendingPathComponent("t.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/t.csv")
        let result = try Subprocess.run("spinning-sprite", simulated + ["--trace", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try kind(link) == .typeSymbolicLink)
        let text = try String(contentsOf: sub.appendingPathComponent("t.csv"), encoding: .utf8)
        #expect(text.hasPrefix("frame,") && text.split(separator: "\n").count == 31, "\(text.prefix(200))")
        let left = try FileManager.default.contentsOfDirectory(atPath: sub.path) + FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!left.contains { $0.hasSuffix(".partial") }, "\(left)")
    }

    @Test("A trace path that is a FIFO: its reader gets the trace, the FIFO stays")
    func fifoTrace() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("t.csv").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = dir.appendingPathComponent("received").path
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "exec cat \"$0\" > \"$1\"", fifo, received]
        try reader.run()
        defer { if reader.isRunning { reader.terminate() } }
        // The game fails at once (73) if no reader has the FIFO open yet: wait for cat's open.
        Thread.sleep(forTimeInterval: 0.5)
        let result = try Subprocess.run("spinning-sprite", simulated + ["--trace", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        reader.waitUntilExit()
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
        let text = try String(contentsOfFile: received, encoding: .utf8)
        #expect(text.hasPrefix("frame,") && text.split(separator: "\n").count == 31)
    }

    @Test("A FIFO nobody reads: exit 73 at once, not a wait for ever")
    func fifoWithoutReader() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("t.csv").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try Subprocess.run("spinning-sprite", simulated + ["--trace", fifo], timeout: 30)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("no process is reading"), "\(result.stderr)")
    }

    @Test("A trace and a screenshot linked to /dev/full: exit 73 with the summary, the links kept",
          arguments: [["--trace", "full.csv"], ["--screenshot", "full.bmp", "--headless"]])
    func deviceFull(arguments: [String]) throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent(arguments[1]).path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
        let mode = arguments.contains("--headless") ? ["--frames", "3"] : simulated
        let result = try Subprocess.run("spinning-sprite", mode + [arguments[0], link] + arguments.dropFirst(2))
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(result.stdout.contains("frames "), "no summary: \(result.stdout)")
        #expect(try kind(link) == .typeSymbolicLink)
    }
}
