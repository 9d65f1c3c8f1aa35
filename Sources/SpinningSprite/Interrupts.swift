#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// SIGINT / SIGTERM turn into a clean stop: the loop ends after the current
/// frame, and the trace is finished, so nothing the user asked to save is lost.
///
/// SDL also turns these signals into a quit event while its video is up; this
/// covers simulations, which run without SDL.
enum Interrupts {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    /// Whether a stop was requested.
    static var requested: Bool { flag != 0 }

    /// Installs the handlers; call once at start-up.
    ///
    /// The signals are also unblocked: a parent that starts the game from a
    /// thread with them blocked (Dispatch worker threads block them) would
    /// otherwise pass that mask on, and Ctrl-C would never arrive.
    static func install() {
        signal(SIGINT) { _ in Interrupts.flag = 1 }
        signal(SIGTERM) { _ in Interrupts.flag = 1 }
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
    }
}

/// Prints to standard error, where messages for the user go.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("spinning-sprite: \(message)\n".utf8))
}
