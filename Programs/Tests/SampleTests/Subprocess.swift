import Foundation

/// Runs the package's built executables as subprocesses, as a user would.
enum Subprocess {
    /// What a finished run printed and returned.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Standard output as bytes, for output that need not be UTF-8 (file names).
        var stdoutBytes: [UInt8] = []
        /// Standard error as it arrived: the moment each read returned, and
        /// how many bytes had come by then.
        var stderrArrivals: [(at: Date, total: Int)] = []

        /// When standard error first held `text`: the moment the program said
        /// it, which may be well before the process ended (the kernel tears a
        /// large process down slowly on a busy machine). Nil if it never did.
        func stderrTime(of text: String) -> Date? {
            guard let found = stderr.range(of: text) else { return nil }
            let end = stderr.utf8.distance(from: stderr.startIndex, to: found.upperBound)
            return stderrArrivals.first { $0.total >= end }?.at
        }
    }

    /// The directory holding the built products: next to the test bundle, or
    /// `.build/debug` in this checkout.
    static let productsDirectory: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: beside.appendingPathComponent("spinning-sprite").path) { return beside }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug")
    }()

    /// Runs `product` with `arguments`; kills it after `timeout` seconds so a
    /// hang fails the test instead of stalling the suite.
    /// `signal`, when given, is sent once after that many seconds (a user's
    /// Ctrl-C), right after `beforeSignal` runs (a fault made while it runs).
    static func run(_ product: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: TimeInterval = 60, signal: (after: TimeInterval, number: Int32)? = nil,
                    beforeSignal: () -> Void = {}) throws -> Result {
        try runExecutable(productsDirectory.appendingPathComponent(product).path, arguments,
                          environment: environment, timeout: timeout, signal: signal, beforeSignal: beforeSignal)
    }

    /// Runs any executable by path (e.g. `/usr/bin/xvfb-run`).
    static func runExecutable(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                              timeout: TimeInterval = 60,
                              signal: (after: TimeInterval, number: Int32)? = nil,
                              beforeSignal: () -> Void = {}) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        // Both pipes are drained while the child runs, so a chatty child never blocks on a full pipe.
        let stdoutData = PipeDrain(out), stderrData = PipeDrain(err)
        let signalAt = signal.map { Date().addingTimeInterval($0.after) }
        var signalled = false
        while process.isRunning && Date() < deadline {
            if let signal, let at = signalAt, !signalled, Date() >= at {
                beforeSignal()
                kill(process.processIdentifier, signal.number)
                signalled = true
            }
            usleep(20_000)
        }
        if process.isRunning {
            process.terminate()
            usleep(500_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        let output = stdoutData.wait()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: output, as: UTF8.self),
                      stderr: String(decoding: stderrData.wait(), as: UTF8.self), stdoutBytes: Array(output),
                      stderrArrivals: stderrData.arrivals)
    }

    /// A fresh temporary directory for one test's files, in ``testFolder``;
    /// names kept short, since a socket's path in it must fit 107 bytes.
    static func temporaryDirectory() throws -> URL {
        let dir = testFolder.appendingPathComponent(String(UUID().uuidString.prefix(13)))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// An X display name no server answers on this machine, from :77 up: one
    /// with no lock file and no socket bound to its path, in the file system
    /// or the abstract namespace (`/proc/net/unix` lists both), so that a
    /// server someone started by hand on :77 is not taken for none.
    static let unservedXDisplay: String = {
        let sockets = (try? String(contentsOfFile: "/proc/net/unix", encoding: .utf8)) ?? ""
        let bound = Set(sockets.split(separator: "\n").compactMap { $0.split(separator: " ").last }.map(String.init))
        let number = (77...999).first { n in
            !FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock")
                && !bound.contains("/tmp/.X11-unix/X\(n)") && !bound.contains("@/tmp/.X11-unix/X\(n)")
        }
        return ":\(number ?? 999)"
    }()

    /// This test process's folder for its files, removed when the process
    /// exits, so that a run leaves nothing in the temporary directory.
    private static let testFolder: URL = {
        atexit { try? FileManager.default.removeItem(at: Subprocess.testFolder) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("cadence-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
    }()
}

/// Reads a pipe to its end on a background queue, noting when each read
/// returned; ``wait()`` returns what it read.
private final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    /// When each read returned, and the bytes read by then; read after ``wait()``.
    private(set) var arrivals: [(at: Date, total: Int)] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        DispatchQueue.global().async {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                self.data.append(chunk)
                self.arrivals.append((Date(), self.data.count))
            }
            self.done.signal()
        }
    }

    /// Blocks until the pipe is closed; the semaphore orders the writes before this read.
    func wait() -> Data {
        done.wait()
        return data
    }
}
