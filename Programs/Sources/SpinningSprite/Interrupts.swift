#if canImport(Glibc)
import Glibc
#endif
import Cadence
import Foundation

/// SIGINT, SIGTERM, SIGHUP (the terminal closed) and SIGPIPE (standard
/// output closed) turn into a clean stop: the loop ends after the current
/// frame, the outputs are saved and the summary printed, so nothing the user
/// asked to save is lost. Every other signal that would end the process and
/// can be caught (SIGQUIT, SIGUSR1, SIGALRM, a crash's SIGSEGV, ...) first
/// removes the unfinished temporary files, then ends it as it would have.
/// SIGXFSZ (a file grew past the process's size limit) is ignored: the write
/// then fails, and is reported like a full disk (exit 73, older files kept).
/// The handlers are installed before anything is opened.
///
/// SDL also turns SIGINT and SIGTERM into a quit event while its video is up;
/// this covers simulations, which run without SDL, and SIGHUP, which SDL
/// leaves alone. A lost display server cannot be turned into a stop: Xlib
/// ends the process from its I/O error handler. ``finishAtExit(_:)`` covers
/// that: the unfinished run is finished while the process exits.
/// The C `struct sigaction`, named apart from the function of the same name.
private typealias SignalAction = sigaction

enum Interrupts {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0
    nonisolated(unsafe) private static var atExit: (() -> Void)?
    nonisolated(unsafe) private static var atExitInstalled = false

    /// The signals that stop a run cleanly.
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]

    /// The catchable signals whose default action ends the process, beyond
    /// ``stopSignals``: they end it still, without leaving temporary files.
    static let fatalSignals = [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
                               SIGIO, SIGPWR, SIGSTKFLT, SIGSYS, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV]
        + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())

    /// The signals a crash raises, from the faulting instruction.
    private static let faultSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS]

    /// What each fatal signal did before, restored for a crash's backtrace.
    nonisolated(unsafe) private static var previous = [SignalAction](repeating: SignalAction(), count: 65)

    /// Whether a stop was requested.
    static var requested: Bool { flag != 0 }

    /// Installs the handlers; call once, first thing at start-up.
    ///
    /// The signals are also unblocked: a parent that starts the game from a
    /// thread with them blocked (Dispatch worker threads block them) would
    /// otherwise pass that mask on, and Ctrl-C would never arrive.
    static func install() {
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in stopSignals {
            signal(number) { _ in Interrupts.flag = 1 }
            sigaddset(&handled, number)
        }
        for number in fatalSignals {
            var action = SignalAction()
            action.__sigaction_handler.sa_sigaction = { number, info, _ in
                AtomicReplacement.removeUnfinished()
                // A fault the kernel raised (a crash) goes back to the handler
                // before ours, the runtime's backtracer: returning re-runs the
                // faulting instruction. Anything sent (kill, raise) ends the
                // process by the default action, as it would have without us.
                if let info, info.pointee.si_code > 0, Interrupts.faultSignals.contains(number) {
                    Interrupts.previous.withUnsafeBufferPointer { _ = sigaction(number, $0.baseAddress! + Int(number), nil) }
                    return
                }
                signal(number, SIG_DFL)
                raise(number)
            }
            action.sa_flags = SA_SIGINFO
            sigemptyset(&action.sa_mask)
            previous.withUnsafeMutableBufferPointer { _ = sigaction(number, &action, $0.baseAddress! + Int(number)) }
            sigaddset(&handled, number)
        }
        signal(SIGXFSZ, SIG_IGN)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
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
