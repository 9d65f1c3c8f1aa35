#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The real clock: `CLOCK_MONOTONIC`, which never jumps with wall-clock changes.
///
/// `sleep(until:)` is a plain absolute `clock_nanosleep`; it is as precise as the
/// kernel's timers allow (typically 50–1000 µs late). Where a deadline must be
/// met to the microsecond, use ``PreciseSleeper``, which sleeps most of the way
/// and spins the rest.
@_spi(Programs) public final class MonotonicClock: FrameClock {
    /// Creates the clock; it has no state, all instances agree.
    public init() {}

    /// Nanoseconds since an arbitrary point (boot on Linux).
    public var now: Nanoseconds {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Nanoseconds(ts.tv_sec) * TimeUnit.nanosecondsPerSecond + Nanoseconds(ts.tv_nsec)
    }

    /// Sleeps on an absolute deadline, resuming after signals until it is reached.
    public func sleep(until deadline: Nanoseconds) {
        var ts = timespec(
            tv_sec: Int(deadline / TimeUnit.nanosecondsPerSecond),
            tv_nsec: Int(deadline % TimeUnit.nanosecondsPerSecond)
        )
        while deadline > now {
            let result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
            if result != EINTR { break }
        }
    }
}
