@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// How a real run ends when SDL does not come back: the display's
/// connection lost, or a stop signal, while SDL is inside a present or a
/// window's start-up it never returns from (see ``PresentWatchdog``). The
/// ending runs on the watchdog's thread while the game's thread is parked
/// inside SDL, so the game's state is read by one thread only.
final class RunEnding: @unchecked Sendable {
    /// The game, once the run has started: before it, there is nothing to save.
    var game: Game?
    /// When the loop began, on the monotonic clock: start-up ends there.
    var loopStart: Nanoseconds?
    /// What ends the run (a number of frames, a duration, the player).
    var limit = GameConfig.Limit.untilQuit
    private let screenshot: String?

    init(screenshot: String?) {
        self.screenshot = screenshot
    }

    /// A watchdog whose ending is this one.
    func watchdog() -> PresentWatchdog {
        PresentWatchdog(stopRequested: { Interrupts.requested }) { [self] reason in
            let lost: String? = switch reason {
            case .displayLost(let what): what
            case .presentStalled:
                "the display stopped answering (SDL blocked for \(PresentWatchdog.stallLimit / 1_000_000_000) s)"
            case .startUpStalled:
                "SDL's start-up waited \(PresentWatchdog.startUpLimit / 1_000_000_000) s for the display (SDL blocked)"
            case .stopRequested: nil
            }
            var status: Int32
            if let game {
                status = Self.finishWithoutDisplay(game, lost: lost, screenshot: screenshot)
                if status == 0, let reason = noFrameReason(game) {
                    printError(reason)
                    status = NoFrameRun.exitCode
                }
            } else {
                printError("\(lost ?? "stopped by a signal"): ended during start-up, before the run began")
                status = 1
            }
            fflush(nil)
            _exit(status)
        }
    }

    /// Why the run presented no frame (see ``NoFrameRun``), or nil when it presented one.
    nonisolated func noFrameReason(_ game: Game) -> String? {
        guard game.statistics.runSummary.frames == 0 else { return nil }
        let now = MonotonicClock().now
        return NoFrameRun.reason(startUp: (loopStart ?? now) - game.start, elapsed: now - game.start,
                                 limit: limit, stopped: Interrupts.requested)
    }

    /// Completes the trace and prints the summary without SDL, whose display
    /// is gone or whose present never returned; the screenshot, which needs the
    /// renderer, is not saved. Returns the exit status: 1 naming what was lost,
    /// else (a stop) 0, or 73 when an output could not be written.
    static func finishWithoutDisplay(_ game: Game, lost: String?, screenshot: String?) -> Int32 {
        var status: Int32 = lost == nil ? 0 : 1
        if let lost { printError("\(lost): run ended") }
        if let screenshot {
            printError("--screenshot: \"\(screenshot)\" not saved: the display did not answer")
            if status == 0 { status = 73 }
        }
        do { print(try game.finish()) } catch let failure as OutputFailure {
            printError("--trace: \(failure.reason)")
            print(failure.summary)
            if status == 0 { status = 73 }
        } catch {}
        return status
    }
}
