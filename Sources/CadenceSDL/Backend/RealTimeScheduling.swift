#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A real-time scheduling class for the pacing thread, where the system allows one.
///
/// Under the normal class a thread that wakes from a sleep waits for the
/// scheduler to pick it, behind whatever else is runnable; on a loaded machine
/// that is where late wake-ups come from. A thread in `SCHED_FIFO` runs as soon
/// as it is runnable, ahead of every normal thread. Processes may have it only
/// with `CAP_SYS_NICE` or an `RLIMIT_RTPRIO` allowance, so asking is allowed to
/// fail, and pacing then works as before. Linux throttles real-time threads to
/// 95% of each second by default, so a bug cannot freeze the machine; still,
/// a pacer in this class should sleep most of the time, not spin.
@_spi(Programs) public enum RealTimeScheduling {
    /// Puts the calling thread in `SCHED_FIFO` at `priority` (1…99; low values
    /// are enough to run ahead of normal threads). Returns whether the system
    /// allowed it; when it refuses, nothing changes.
    @discardableResult
    public static func request(priority: Int32 = 1) -> Bool {
        var parameters = sched_param()
        parameters.sched_priority = priority
        return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0
    }

    /// Returns the calling thread to the normal class.
    public static func release() {
        var parameters = sched_param()
        parameters.sched_priority = 0
        _ = pthread_setschedparam(pthread_self(), SCHED_OTHER, &parameters)
    }

    /// Whether the calling thread is in a real-time class now.
    public static var isInEffect: Bool {
        var policy: Int32 = 0
        var parameters = sched_param()
        guard pthread_getschedparam(pthread_self(), &policy, &parameters) == 0 else { return false }
        return policy == SCHED_FIFO || policy == SCHED_RR
    }
}
