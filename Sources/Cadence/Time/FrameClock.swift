/// The source of time for everything time-dependent in Cadence.
///
/// The display link, the presenter and the statistics never read the system
/// clock themselves: they ask a `FrameClock`. The real game injects
/// ``MonotonicClock``; tests and the display simulator inject ``VirtualClock``,
/// so timing rules are checked exactly, in virtual time, as fast as the CPU runs.
@_spi(Programs) public protocol FrameClock: AnyObject {
    /// The current time in nanoseconds on a monotonic timeline (arbitrary origin).
    var now: Nanoseconds { get }

    /// Blocks (or, for a virtual clock, advances) until `now >= deadline`.
    ///
    /// Deadlines are absolute so that waiting errors never accumulate from one
    /// frame to the next. A deadline in the past returns at once.
    func sleep(until deadline: Nanoseconds)
}
