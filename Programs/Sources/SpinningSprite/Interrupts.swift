#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// SIGINT, SIGTERM and SIGHUP (the terminal closed) turn into a clean stop:
/// the loop ends after the current frame, and the trace is finished, so
/// nothing the user asked to save is lost.
///
/// SDL also turns SIGINT and SIGTERM into a quit event while its video is up;
/// this covers simulations, which run without SDL, and SIGHUP, which SDL
/// leaves alone. A lost display server cannot be turned into a stop: Xlib
/// ends the process from its I/O error handler. ``finishAtExit(_:)`` covers
/// that: the unfinished run is finished while the process exits.
enum Interrupts {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0
    nonisolated(unsafe) private static var atExit: (() -> Void)?
    nonisolated(unsafe) private static var atExitInstalled = false

    /// The signals that stop a run cleanly.
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Whether a stop was requested.
    static var requested: Bool { flag != 0 }

    /// Installs the handlers; call once at start-up.
    ///
    /// The signals are also unblocked: a parent that starts the game from a
    /// thread with them blocked (Dispatch worker threads block them) would
    /// otherwise pass that mask on, and Ctrl-C would never arrive.
    static func install() {
        var stops = sigset_t()
        sigemptyset(&stops)
        for number in stopSignals {
            signal(number) { _ in Interrupts.flag = 1 }
            sigaddset(&stops, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
    }

    /// Runs `finish` if the process exits while a run is unfinished (another
    /// library called `exit`); nil once the run has finished normally.
    static func finishAtExit(_ finish: (() -> Void)?) {
        atExit = finish
        guard !atExitInstalled else { return }
        atExitInstalled = true
        atexit {
            let finish = Interrupts.atExit
            Interrupts.atExit = nil
            finish?()
        }
    }
}

/// Prints to standard error, where messages for the user go.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("spinning-sprite: \(message)\n".utf8))
}
