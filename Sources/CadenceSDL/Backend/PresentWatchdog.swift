#if canImport(Glibc)
import Glibc
#endif
import Cadence
import Synchronization

/// Ends a run whose present (or window's start-up) never returns.
///
/// SDL can stay inside a call for ever: its Wayland driver, waiting on a
/// connection the compositor closed, loops on the connection's error without
/// a pause (SDL 2.26: in a present waiting for a frame callback, and in
/// showing a window waiting for its first configure), and an X server that
/// is stopped never answers. The game's thread is then unreachable: a stop
/// signal sets its flag, and nothing reads it. A thread of the watchdog's own
/// looks every 20 ms. Before the first present returns it ends the run as
/// soon as the display's connection is lost, in a call or between calls (a
/// compositor may close the connection while the game loads its assets, and
/// SDL's next call would spin on it). While a guarded call is in progress it ends the run
/// when the display's connection is lost (once ``watch(_:)`` named it), when
/// a stop was asked for and the call has not returned within ``stopGrace``,
/// or, once a present has returned (``presentReturned()``), when the call
/// has been blocked ``stallLimit`` (a minute: a display that is only slow is
/// waited for, see `DisplayWaits`). Before the first present returns the
/// limit is ``startUpLimit``, longer: a software renderer may spend seconds
/// on its first frame (llvmpipe compiling its shaders, twenty seconds on an
/// emulated CPU), but a start-up that waits for a compositor that never
/// answers must end too (SDL 3.4 can wait for ever for a window's first
/// configure, see `docs/desktops.md`).
///
/// Ending is claimed once: the watchdog swaps the call's start for a mark
/// only if the call is still the one it saw, and the game's thread swaps it
/// back to idle only if it was not claimed. Whichever wins owns the run's
/// end. A game's thread that loses (its call returned after the claim) parks
/// for good, so the game's state the ending reads (the trace, the
/// statistics) is touched by one thread only. The ending must not return:
/// finish the outputs, flush, `_exit`.
@_spi(Programs) public final class PresentWatchdog: Sendable {
    /// Why the run is being ended.
    public enum Reason: Sendable, Equatable {
        /// The display's connection is lost (see `DisplayConnection`).
        case displayLost(String)
        /// A stop was requested while a guarded call did not return.
        case stopRequested
        /// A guarded call has not returned for `PresentWatchdog/stallLimit`.
        case presentStalled
        /// A guarded call before the first present (the window's or the
        /// renderer's start-up, the first present) has not returned for
        /// `PresentWatchdog/startUpLimit`.
        case startUpStalled
    }

    /// How long a guarded call may block, on a connection that holds, before
    /// the display counts as gone: a server that is only slow (stopped, or
    /// grabbed by another client) is waited for this long. One whose
    /// connection is gone ends the run at once.
    public static let stallLimit: Nanoseconds = 60_000_000_000
    /// How long a guarded call before the first present may block on a
    /// connection that holds: a start-up that slow is stuck, not slow.
    public static let startUpLimit: Nanoseconds = 120_000_000_000
    /// How long a guarded call may keep a requested stop waiting.
    public static let stopGrace: Nanoseconds = 300_000_000

    /// 0 outside a guarded call, the call's start (monotonic ns, never 0)
    /// inside one, ``claimed`` once the watchdog owns the run's end.
    private let callStart = Atomic<Int64>(0)
    private static let claimed: Int64 = -1
    private let connection = Mutex<DisplayConnection?>(nil)
    /// Whether a present has returned: from then on the stall limit applies.
    private let presented = Atomic<Bool>(false)
    private let stopRequested: @Sendable () -> Bool
    private let end: @Sendable (Reason) -> Never
    /// The limits in force: ``stallLimit`` and ``startUpLimit``, shorter in tests.
    private let limit: Nanoseconds
    private let startUp: Nanoseconds

    /// Starts the watching thread, which holds the watchdog for the rest of
    /// the process. `stopRequested` says whether a stop signal came; `end`
    /// (called on the watchdog's thread) ends the process.
    public init(stopRequested: @escaping @Sendable () -> Bool, stallLimit: Nanoseconds = PresentWatchdog.stallLimit,
                startUpLimit: Nanoseconds = PresentWatchdog.startUpLimit, end: @escaping @Sendable (Reason) -> Never) {
        self.stopRequested = stopRequested
        self.end = end
        limit = stallLimit
        startUp = startUpLimit
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            Unmanaged<PresentWatchdog>.fromOpaque(context!).takeUnretainedValue().watch()
        }, context)
        pthread_detach(thread)
    }

    /// Watches `connection` too: its loss ends a guarded call at once.
    public func watch(_ connection: DisplayConnection) {
        self.connection.withLock { $0 = connection }
    }

    /// Ends the run now, on the calling thread, when the watched connection
    /// is lost: an SDL call that came back from a broken connection (events
    /// with a quit among them, a present that failed) must not let the game
    /// go on to SDL's teardown, which talks to the server that is gone. Call
    /// it outside a guarded call; it returns while the connection holds.
    ///
    /// `wait`: how long to keep asking while the connection still holds, for
    /// a call that failed because of a loss the connection does not show yet
    /// (a compositor killed while SDL was making the window: its process
    /// group's end reaches the socket a moment after SDL's own read failed).
    public func endIfLost(waitingUpTo wait: Duration = .zero) {
        let clock = ContinuousClock()
        let deadline = clock.now + wait
        var lost = connection.withLock({ $0 })?.lost
        while lost == nil, clock.now < deadline {
            usleep(20_000)
            lost = connection.withLock({ $0 })?.lost
        }
        guard let lost else { return }
        guard callStart.compareExchange(expected: 0, desired: Self.claimed, ordering: .sequentiallyConsistent).exchanged
        else { while true { pause() } }
        end(.displayLost(lost))
    }

    /// Claims the run's end for the caller, whatever call is in progress:
    /// for an ending the watchdog does not run (Xlib's exit on a lost X
    /// server, while the watchdog may see the same loss). False when the
    /// watchdog claimed it first: its ending runs, and the caller must not return.
    public func claimEnding() -> Bool {
        while true {
            let seen = callStart.load(ordering: .sequentiallyConsistent)
            if seen == Self.claimed { return false }
            if callStart.compareExchange(expected: seen, desired: Self.claimed, ordering: .sequentiallyConsistent).exchanged {
                return true
            }
        }
    }

    /// A present returned: a guarded call blocked ``stallLimit`` from now on
    /// counts as a display that stopped answering.
    public func presentReturned() {
        presented.store(true, ordering: .sequentiallyConsistent)
    }

    /// Runs `body` (an SDL call that may never return) under watch. Never
    /// returns if the watchdog claimed the run's end meanwhile: its ending
    /// exits the process.
    public func guarding<Result>(_ body: () throws -> Result) rethrows -> Result {
        let start = max(Self.now(), 1)
        while true {
            let seen = callStart.load(ordering: .sequentiallyConsistent)
            if seen == Self.claimed { while true { pause() } }
            if callStart.compareExchange(expected: seen, desired: start, ordering: .sequentiallyConsistent).exchanged {
                break
            }
        }
        defer {
            if !callStart.compareExchange(expected: start, desired: 0, ordering: .sequentiallyConsistent).exchanged {
                while true { pause() }
            }
        }
        return try body()
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
            let start = callStart.load(ordering: .sequentiallyConsistent)
            let lost = connection.withLock { $0 }?.lost
            if start == 0, let lost, !presented.load(ordering: .sequentiallyConsistent) {
                // Lost during start-up, between calls: nothing of the game's
                // reads the connection before its first frame.
                if callStart.compareExchange(expected: 0, desired: Self.claimed, ordering: .sequentiallyConsistent).exchanged {
                    end(.displayLost(lost))
                }
                continue
            }
            guard start > 0 else { continue }
            let blocked = Self.now() - start
            let started = presented.load(ordering: .sequentiallyConsistent)
            let reason: Reason? = lost.map { .displayLost($0) }
                ?? (stopRequested() && blocked > Self.stopGrace ? .stopRequested
                    : started && blocked > limit ? .presentStalled
                    : !started && blocked > startUp ? .startUpStalled : nil)
            guard let reason else { continue }
            if callStart.compareExchange(expected: start, desired: Self.claimed, ordering: .sequentiallyConsistent).exchanged {
                end(reason)
            }
        }
    }
}
