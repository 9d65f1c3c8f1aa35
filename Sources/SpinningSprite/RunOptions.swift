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
}

/// What the user asked to save, checked before the run starts so a bad path
/// fails at once instead of after minutes of play.
struct Outputs {
    let screenshot: String?
    let traceWriter: TraceWriter?
    /// The run's start on the link's clock; trace times count from here.
    let start: Nanoseconds

    init(screenshot: String?, trace: String?, start: Nanoseconds) throws {
        if let screenshot {
            guard screenshot.lowercased().hasSuffix(".bmp") else {
                throw ValidationError("--screenshot: \"\(screenshot)\" must end in .bmp")
            }
            try Outputs.checkWritable(screenshot, flag: "--screenshot")
        }
        self.screenshot = screenshot
        self.start = start
        do {
            traceWriter = try trace.map { try TraceFile.open(path: $0, runStart: start) }
        } catch {
            printError("--trace: \(error)")
            throw ExitCode(73)
        }
    }

    /// Fails (exit 73, "can't create") unless `path` can be written, without
    /// touching an existing file.
    private static func checkWritable(_ path: String, flag: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        let ok = fm.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue
            && fm.isWritableFile(atPath: directory)
            && (!fm.fileExists(atPath: path) || fm.isWritableFile(atPath: path))
        if !ok {
            printError("\(flag): cannot write \"\(path)\" (missing directory or no permission)")
            throw ExitCode(73)
        }
    }
}
