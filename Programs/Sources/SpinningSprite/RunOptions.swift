import ArgumentParser
@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// The validated command line, split into the game's settings and the run's setup.
struct RunOptions {
    var config: GameConfig
    var simulated: DisplaySpec?
    var refreshChanges: [(at: Nanoseconds, value: DisplaySpec)]
    var headless: Bool
    var fullscreen: Bool
    var window: (width: Int, height: Int)
    /// The sprite's path as given, for messages.
    var spritePath: String
    /// The same path as the file system's bytes (``RawArguments``): a file name need not be UTF-8.
    var spritePathBytes: [UInt8]
    var vsync: VSyncMode
    var vrr: VRROverride
    var vrrRange: ClosedRange<FrameRate>?
    var video: VideoChoice

    /// `Assets/sprite.bmp` in the working directory, or else in the repository's
    /// checkout (found from this source file's path, Programs/Sources/SpinningSprite),
    /// so the sample runs from anywhere.
    static var defaultSpritePath: String {
        let local = "Assets/sprite.bmp"
        if FileManager.default.fileExists(atPath: local) { return local }
        let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repositoryRoot.appendingPathComponent(local).path
    }

    /// The exit for a sprite that could not be loaded, the same in every mode:
    /// 66 ("cannot open input") when it is missing, a directory or unreadable,
    /// 65 ("bad data") when it is a file but not a BMP SDL can read.
    func spriteFailure(_ error: Error) -> ExitCode {
        var status = stat()
        let exists = withSpritePath { stat($0, &status) == 0 }
        let isDirectory = exists && (status.st_mode & S_IFMT) == S_IFDIR
        if !exists || isDirectory || !withSpritePath({ access($0, R_OK) == 0 }) {
            printError("--sprite: cannot open \"\(spritePath)\"" + (isDirectory ? ": it is a directory" : ""))
            return ExitCode(66)
        }
        printError("--sprite: \"\(spritePath)\" is not a BMP image (\(error))")
        return ExitCode(65)
    }

    /// Whether anything is at the sprite's path.
    var spriteExists: Bool {
        var status = stat()
        return withSpritePath { stat($0, &status) == 0 }
    }

    /// Calls `body` with the sprite's path as a C string of its own bytes.
    private func withSpritePath<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (spritePathBytes + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}

/// What the user asked to save, checked before the run starts so a bad path
/// fails at once instead of after minutes of play. The trace is opened only
/// once start-up succeeded (``openTrace()``); every output replaces an
/// existing file only when it is complete. Paths are kept as the bytes the
/// command line gave (``RawArguments``): a file name need not be UTF-8.
struct Outputs {
    /// The paths as given, for messages.
    let screenshot: String?
    let trace: String?
    /// The same paths as the file system's bytes.
    let screenshotBytes: [UInt8]?
    let traceBytes: [UInt8]?
    /// The run's start on the link's clock; trace times count from here.
    let start: Nanoseconds

    init(screenshot: String?, trace: String?, start: Nanoseconds) throws {
        if let screenshot {
            guard screenshot.lowercased().hasSuffix(".bmp") else {
                throw ValidationError("--screenshot: \"\(screenshot)\" must end in .bmp")
            }
        }
        if let trace {
            guard TraceFile.isSupported(path: trace) else {
                throw ValidationError("--trace: \"\(trace)\" must end in .csv or .json")
            }
        }
        self.screenshot = screenshot
        self.trace = trace
        screenshotBytes = screenshot.map(RawArguments.bytes)
        traceBytes = trace.map(RawArguments.bytes)
        self.start = start
        try screenshotBytes.map { try Outputs.checkCreatable($0, flag: "--screenshot") }
        try traceBytes.map { try Outputs.checkCreatable($0, flag: "--trace") }
    }

    /// The trace writer, once the run has started (exit 73 when it cannot be created).
    func openTrace() throws -> TraceWriter? {
        do {
            return try traceBytes.map { try TraceFile.open(pathBytes: $0, runStart: start, gameColumns: ["angle"]) }
        } catch {
            printError("--trace: \(error)")
            throw ExitCode(73)
        }
    }

    /// Fails (exit 73, "can't create") unless a file can be written at the
    /// path, without touching an existing file: its directory must exist and
    /// be writable, and the path must not be a directory or a read-only file.
    private static func checkCreatable(_ path: [UInt8], flag: String) throws {
        do { try AtomicReplacement.checkCreatable(pathBytes: path) } catch {
            printError("\(flag): \(error)")
            throw ExitCode(73)
        }
    }
}
