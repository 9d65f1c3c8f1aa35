import ArgumentParser
import Cadence
import CadenceSDL
import Foundation

/// The validated command line, split into the game's settings and the run's setup.
struct RunOptions {
    var config: GameConfig
    var simulated: DisplaySpec?
    var refreshChanges: [(at: Nanoseconds, value: DisplaySpec)]
    var headless: Bool
    var fullscreen: Bool
    var window: (width: Int, height: Int)
    var spritePath: String
    var vsync: VSyncMode
    var vrr: VRROverride
    var vrrRange: ClosedRange<FrameRate>?

    /// `Assets/sprite.bmp` in the working directory, or else in this package's
    /// checkout (found from this source file's path), so the sample runs from anywhere.
    static var defaultSpritePath: String {
        let local = "Assets/sprite.bmp"
        if FileManager.default.fileExists(atPath: local) { return local }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(local).path
    }

    /// The exit for a sprite that could not be loaded, the same in every mode:
    /// 66 ("cannot open input") when it is missing, a directory or unreadable,
    /// 65 ("bad data") when it is a file but not a BMP SDL can read.
    func spriteFailure(_ error: Error) -> ExitCode {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: spritePath, isDirectory: &isDirectory)
        if !exists || isDirectory.boolValue || !FileManager.default.isReadableFile(atPath: spritePath) {
            printError("--sprite: cannot open \"\(spritePath)\"" + (isDirectory.boolValue ? ": it is a directory" : ""))
            return ExitCode(66)
        }
        printError("--sprite: \"\(spritePath)\" is not a BMP image (\(error))")
        return ExitCode(65)
    }
}

/// What the user asked to save, checked before the run starts so a bad path
/// fails at once instead of after minutes of play. The trace is opened only
/// once start-up succeeded (``openTrace()``), and replaces an existing file
/// only when it is finished.
struct Outputs {
    let screenshot: String?
    let trace: String?
    /// The run's start on the link's clock; trace times count from here.
    let start: Nanoseconds

    init(screenshot: String?, trace: String?, start: Nanoseconds) throws {
        if let screenshot {
            guard screenshot.lowercased().hasSuffix(".bmp") else {
                throw ValidationError("--screenshot: \"\(screenshot)\" must end in .bmp")
            }
            try Outputs.checkWritable(screenshot, flag: "--screenshot")
        }
        if let trace {
            guard TraceFile.isSupported(path: trace) else {
                throw ValidationError("--trace: \"\(trace)\" must end in .csv or .json")
            }
            try Outputs.checkWritable(trace, flag: "--trace")
        }
        self.screenshot = screenshot
        self.trace = trace
        self.start = start
    }

    /// The trace writer, once the run has started (exit 73 when it cannot be created).
    func openTrace() throws -> TraceWriter? {
        do {
            return try trace.map { try TraceFile.open(path: $0, runStart: start, gameColumns: ["angle"]) }
        } catch {
            printError("--trace: \(error)")
            throw ExitCode(73)
        }
    }

    /// Fails (exit 73, "can't create") unless a file can be written at `path`,
    /// without touching an existing file: its directory must exist and be
    /// writable, and `path` must not be a directory or a read-only file.
    private static func checkWritable(_ path: String, flag: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            printError("\(flag): \"\(path)\" is a directory; name a file in it")
            throw ExitCode(73)
        }
        let ok = fm.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue
            && fm.isWritableFile(atPath: directory)
            && (!fm.fileExists(atPath: path) || fm.isWritableFile(atPath: path))
        if !ok {
            printError("\(flag): cannot write \"\(path)\" (missing directory or no permission)")
            throw ExitCode(73)
        }
    }
}
