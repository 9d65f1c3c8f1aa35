#if canImport(Glibc)
import Glibc
#endif
@_spi(Programs) import CadenceSDL

/// When a repaint sweep stops early: SIGINT, SIGTERM or SIGHUP (``BenchStop``,
/// read each frame), or the compositor gone. Either way the sweep
/// prints what it measured so far, the delay in progress as a last, shorter
/// row. A present that never returns (SDL 2.26 spins inside it once the
/// compositor is gone) is ended by a ``PresentWatchdog``, which prints the
/// same from its own thread and exits.
enum SweepStop {
    /// Whether a stop signal came.
    static var requested: Bool { BenchStop.requested }

    /// A watchdog of `connection` (SDL's, from the moment its video is up)
    /// for the calls it guards: a stuck one ends the sweep with `partialRow()`
    /// printed, exit 1 when the compositor is gone, else 0.
    static func watchdog(_ connection: DisplayConnection, partialRow: @escaping @Sendable () -> String?) -> PresentWatchdog {
        let watchdog = PresentWatchdog(stopRequested: { requested }) { reason in
            if let row = partialRow() { print(row) }
            var status: Int32 = 0
            switch reason {
            case .displayLost(let what): status = report("\(what): sweep ended")
            case .presentStalled: status = report("a present blocked for \(PresentWatchdog.stallLimit / 1_000_000_000) s: sweep ended")
            case .startUpStalled:
                status = report("the window's start-up blocked for \(PresentWatchdog.startUpLimit / 1_000_000_000) s: sweep ended")
            case .stopRequested: break
            }
            fflush(nil)
            _exit(status)
        }
        watchdog.watch(connection)
        return watchdog
    }

    /// Says why the sweep ended early, on standard error; returns its exit status (1).
    @discardableResult
    static func report(_ message: String) -> Int32 {
        let line = Array("cadence-bench repaint-sweep: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        return 1
    }
}
