import Cadence
import CSDL2
import CThreadTiming
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A real-time scheduling class for the loop's thread, where the system allows one.
///
/// Under the normal class a thread that wakes from a sleep waits for the
/// scheduler to pick it, behind whatever else is runnable; on a loaded machine
/// that is where late wake-ups come from, and a spin before the deadline
/// cannot absorb them (measured with `Scripts/bench pacing --explore` on a
/// shared 2-core machine: wake-ups milliseconds late in the normal class,
/// tens of microseconds in `SCHED_FIFO`). A thread in `SCHED_FIFO` runs as
/// soon as it is runnable, ahead of every normal thread.
///
/// Asked as SDL's `SDL_LinuxSetThreadPriorityAndPolicy` asks: first of the
/// kernel (allowed with an `RLIMIT_RTPRIO` allowance or `CAP_SYS_NICE`), then
/// of RealtimeKit over D-Bus where it runs (SDL makes that call). Either way
/// `RLIMIT_RTTIME` is set first, with a handler for the signal the kernel
/// sends at it, so a loop that stops sleeping for 100 ms is put back in the
/// normal class, never left holding a core and never killed
/// (``wasDemoted``). Where both refuse, nothing changes and pacing works as
/// before: the game is never told to care.
@_spi(Programs) public enum RealTimeScheduling {
    /// How the calling thread is scheduled, as a request left it.
    public enum Grant: String, Sendable, Equatable {
        /// The normal class: nothing allowed the real-time one.
        case normal
        /// `SCHED_FIFO`, allowed by the kernel (an `RLIMIT_RTPRIO` allowance, or `CAP_SYS_NICE`).
        case kernel
        /// `SCHED_FIFO`, granted by RealtimeKit over D-Bus.
        case realtimeKit

        /// In a few words, for the overlay and `display-probe`.
        public var words: String {
            switch self {
            case .normal: "normal"
            case .kernel: "fifo (kernel)"
            case .realtimeKit: "fifo (rtkit)"
            }
        }
    }

    /// How long a real-time thread may run without sleeping before it is
    /// put back in the normal class (`RLIMIT_RTTIME`'s soft limit), and the
    /// hard limit, RealtimeKit's own ceiling, past which the kernel would kill.
    public static let runWithoutSleeping: (soft: Nanoseconds, hard: Nanoseconds) = (100_000_000, 200_000_000)

    /// Puts the calling thread in `SCHED_FIFO` at `priority` (1…99; low values
    /// are enough to run ahead of normal threads) where the kernel or
    /// RealtimeKit allows it, guarded by `RLIMIT_RTTIME`. Returns how it was
    /// granted; ``Grant/normal`` when refused, and then nothing changed.
    @discardableResult
    public static func request(priority: Int32 = 1) -> Grant {
        guard (1...99).contains(priority),
              cadence_guard_real_time(UInt(runWithoutSleeping.soft / 1_000), UInt(runWithoutSleeping.hard / 1_000)) == 0
        else { return .normal }
        if cadence_enter_fifo(priority) == 0 { return .kernel }
        // RealtimeKit grants its own maximum priority at most; SDL's "low" asks for 1.
        let asked = SDL_LinuxSetThreadPriorityAndPolicy(Sint64(cadence_thread_id()),
                                                        Int32(SDL_THREAD_PRIORITY_LOW.rawValue), SCHED_FIFO)
        if asked == 0 && isInEffect { return .realtimeKit }
        cadence_unguard_real_time()
        return .normal
    }

    /// Returns the calling thread to the normal class.
    public static func release() {
        var parameters = sched_param()
        parameters.sched_priority = 0
        _ = sched_setscheduler(0, SCHED_OTHER, &parameters)
        cadence_unguard_real_time()
    }

    /// Whether the calling thread is in a real-time class now, as the kernel
    /// says (glibc's `pthread_getschedparam` may answer from its own cache).
    public static var isInEffect: Bool {
        let policy = sched_getscheduler(0) & ~Int32(0x4000_0000)   // without SCHED_RESET_ON_FORK
        return policy == SCHED_FIFO || policy == SCHED_RR
    }

    /// Whether the guard put the thread back in the normal class because it
    /// ran `runWithoutSleeping.soft` without sleeping.
    public static var wasDemoted: Bool { cadence_real_time_demoted() != 0 }
}
