import ArgumentParser
import Cadence
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
