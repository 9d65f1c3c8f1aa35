import ArgumentParser
@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// The validated command line, split into the game's settings and the run's setup.
struct RunOptions {
    var config: GameConfig
    var simulated: SimulatedDisplay.Panel?
    var refreshChanges: [(at: Nanoseconds, value: SimulatedDisplay.Panel)]
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
    /// Whether frames are held to their moment by the compositor (``SDLBackend/holdsPresentsAtCompositor``).
    var commitTiming: Bool

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
        if let large = error as? ImageTooLarge {
            printError("--sprite: \"\(spritePath)\" declares \(large.width)x\(large.height) pixels, more than the "
                       + "renderer's largest texture (\(large.limitWidth)x\(large.limitHeight)): refused before decoding")
            return ExitCode(65)
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
