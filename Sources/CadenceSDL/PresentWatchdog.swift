#if canImport(Glibc)
import Glibc
#endif
import Cadence
import Synchronization

/// Ends a run whose present never returns.
///
/// SDL's present can stay inside SDL for ever: its Wayland driver, waiting
/// for a frame callback on a connection the compositor closed, loops on the
/// connection's error without a pause (SDL 2.26), and an X server that is
/// stopped never answers. The game's thread is then unreachable: a stop signal
/// sets its flag, and nothing reads it. A thread of the watchdog's own looks
/// every 20 ms; while a present is in progress it ends the run when the
/// display's connection is lost, when a stop was asked for and the present
/// has not returned within ``stopGrace``, or when the present has been
/// blocked ``stallLimit`` (seconds, far past any refresh) whatever else.
///
/// Ending is claimed once: the watchdog swaps the present's start for a mark
/// only if the present is still the one it saw, and the game's thread swaps
/// it back to idle only if it was not claimed. Whichever wins owns the run's
/// end. A game's thread that loses (its present returned after the claim)
/// parks for good, so the game's state the ending reads (the trace, the
/// statistics) is touched by one thread only. The ending must not return:
/// finish the outputs, flush, `_exit`.
public final class PresentWatchdog: Sendable {
    /// Why the run is being ended.
    public enum Reason: Sendable, Equatable {
        /// The display's connection is lost (see ``GameWindow/lostDisplay``).
        case displayLost(String)
        /// A stop was requested while a present did not return.
        case stopRequested
        /// A present has not returned for ``PresentWatchdog/stallLimit``.
        case presentStalled
    }

    /// How long a present may block before the display counts as gone.
    public static let stallLimit: Nanoseconds = 5_000_000_000
    /// How long a present may keep a requested stop waiting.
    public static let stopGrace: Nanoseconds = 300_000_000

    /// 0 outside a present, the present's start (monotonic ns, never 0) inside
    /// one, ``claimed`` once the watchdog owns the run's end.
    private let presentStart = Atomic<Int64>(0)
    private static let claimed: Int64 = -1
    private let lost: @Sendable () -> String?
    private let stopRequested: @Sendable () -> Bool
    private let end: @Sendable (Reason) -> Never

    /// Starts the watching thread, which holds the watchdog for the rest of
    /// the process. `lost` says what was lost, if anything (called on the
    /// watchdog's thread); `stopRequested` whether a stop signal came; `end`
    /// ends the process.
    public init(lost: @escaping @Sendable () -> String?, stopRequested: @escaping @Sendable () -> Bool,
                end: @escaping @Sendable (Reason) -> Never) {
        self.lost = lost
        self.stopRequested = stopRequested
        self.end = end
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            Unmanaged<PresentWatchdog>.fromOpaque(context!).takeUnretainedValue().watch()
        }, context)
        pthread_detach(thread)
    }

    /// Call right before a present; returns the mark ``didPresent(_:)`` takes.
    public func willPresent() -> Int64 {
        let start = max(Self.now(), 1)
        presentStart.store(start, ordering: .sequentiallyConsistent)
        return start
    }

    /// Call when the present returned. Never returns if the watchdog has
    /// claimed the run's end meanwhile: its ending exits the process.
    public func didPresent(_ start: Int64) {
        if !presentStart.compareExchange(expected: start, desired: 0, ordering: .sequentiallyConsistent).exchanged {
            while true { pause() }
        }
    }

    /// CLOCK_MONOTONIC in nanoseconds, as ``MonotonicClock`` reads it (which is not `Sendable`).
    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The watching thread's loop.
    private func watch() -> Never {
        while true {
            usleep(20_000)
            let start = presentStart.load(ordering: .sequentiallyConsistent)
            guard start > 0 else { continue }
            let blocked = Self.now() - start
            let reason: Reason? = lost().map { .displayLost($0) }
                ?? (stopRequested() && blocked > Self.stopGrace ? .stopRequested
                    : blocked > Self.stallLimit ? .presentStalled : nil)
            guard let reason else { continue }
            if presentStart.compareExchange(expected: start, desired: Self.claimed,
                                            ordering: .sequentiallyConsistent).exchanged {
                end(reason)
            }
        }
    }
}
