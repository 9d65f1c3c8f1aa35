#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): what a wait or
/// a frame's work really cost the machine, as opposed to how long it took.
/// A sleep costs next to none of it; a spin costs all of its time.
@_spi(Programs) public enum ThreadCPUClock {
    /// The CPU time the calling thread has used, in ns since it started.
    public static func now() -> Nanoseconds {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Nanoseconds(ts.tv_sec) * TimeUnit.nanosecondsPerSecond + Nanoseconds(ts.tv_nsec)
    }
}
