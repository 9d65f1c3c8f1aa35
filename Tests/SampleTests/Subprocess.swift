import Foundation

/// Runs the package's built executables as subprocesses, as a user would.
enum Subprocess {
    /// What a finished run printed and returned.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
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
    static func run(_ product: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: TimeInterval = 60) throws -> Result {
        try runExecutable(productsDirectory.appendingPathComponent(product).path, arguments,
                          environment: environment, timeout: timeout)
    }

    /// Runs any executable by path (e.g. `/usr/bin/xvfb-run`).
    static func runExecutable(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                              timeout: TimeInterval = 60) throws -> Result {
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
        var stdoutData = Data(), stderrData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { stdoutData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { stderrData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            usleep(500_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// A fresh temporary directory for one test's files.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
