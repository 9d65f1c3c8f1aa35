#if canImport(Glibc)
import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP stop every benchmark early: each checks
/// ``requested`` at least once a frame, ends within a second, prints the
/// figures of the rounds it completed (a round the signal cut short is left
/// out, and targets are not judged on partial figures) and exits 0, so that
/// `Scripts/bench` can stop what it started. The handlers go in before SDL
/// starts, which then leaves them in place (it takes SIGINT and SIGTERM only
/// where nobody has).
enum BenchStop {
    nonisolated(unsafe) private static var signalNumber: sig_atomic_t = 0

    /// Whether a stop signal came.
    static var requested: Bool { signalNumber != 0 }

    /// The stop signal's name, e.g. "SIGINT", once one came.
    static var signalName: String {
        switch signalNumber {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "a signal"
        }
    }

    /// Installs the handlers, and unblocks the signals (a parent's thread may
    /// have blocked them, and a child inherits that).
    static func install() {
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { BenchStop.signalNumber = $0 }
            sigaddset(&handled, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// The line a stopped benchmark prints before its partial table.
    static var notice: String {
        "stopped by \(signalName): the figures below are over the rounds completed, and not judged"
    }
}
