import ArgumentParser
@_spi(Programs) import Cadence
import CadenceSDL

/// The end of a run: the screenshot, the trace completed, the summary printed.
extension Game {
    /// Draws the last frame again, with the status it was drawn with (the
    /// loop has ended since), and saves it: the screenshot of the run.
    func saveScreenshot(to path: [UInt8]) throws {
        guard let scene, let frame = lastFrame else { return }
        let status = lastStatus ?? describeDisplay()
        try scene.screenshot(to: path) { draw(frame, on: scene, status: status) }
    }

    /// Closes the trace and returns the one-line summary of the run; a second
    /// call only returns the summary. Throws when the trace could not be
    /// completed (now or during the run); the summary is still in the error.
    /// Nonisolated: a run that SDL never returns from ends on another thread.
    nonisolated func finish() throws -> String {
        let summary = statistics.runSummary
        let writer = trace
        trace = nil
        if let traceFailure {
            self.traceFailure = nil
            throw OutputFailure(summary: summary.line, reason: "trace not saved: \(traceFailure)")
        }
        do { try writer?.finish(summary: summary) } catch {
            throw OutputFailure(summary: summary.line, reason: "trace not saved: \(error)")
        }
        return summary.line
    }

    /// The end of a run: saves the screenshot (when asked for), completes the
    /// trace and prints the summary, whatever failed; then exits 73 ("cannot
    /// create output") if any output could not be written. Each output is
    /// written beside its path and renamed into place, so one that failed
    /// leaves an older file as it was, and one that had room is kept.
    func end(_ outputs: Outputs) throws {
        var failed = false
        if let path = outputs.screenshot, let bytes = outputs.screenshotBytes {
            do {
                try saveScreenshot(to: bytes)
                print("screenshot saved to \(path)")
            } catch {
                printError("--screenshot: not saved: \(error)")
                failed = true
            }
        }
        do {
            print(try finish())
        } catch let failure as OutputFailure {
            printError("--trace: \(failure.reason)")
            print(failure.summary)
            failed = true
        }
        if failed { throw ExitCode(73) }
    }
}

/// An output of the run could not be written; the run's summary goes with it.
struct OutputFailure: Error {
    let summary: String
    let reason: String
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
