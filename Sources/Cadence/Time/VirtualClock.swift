/// A clock that only moves when told to: the timeline of tests and the simulator.
///
/// `sleep(until:)` jumps straight to the deadline, so ten simulated minutes of
/// frames run in milliseconds, and every timestamp is exactly reproducible.
@_spi(Programs) public final class VirtualClock: FrameClock {
    /// The current virtual time.
    public private(set) var now: Nanoseconds

    /// Starts the timeline at `start` (zero by default).
    public init(start: Nanoseconds = 0) {
        now = start
    }

    /// Moves time forward to `deadline`; a deadline in the past leaves time alone.
    public func sleep(until deadline: Nanoseconds) {
        if deadline > now { now = deadline }
    }

    /// Moves time forward by `span` (work being done, in simulation).
    public func advance(by span: Nanoseconds) {
        precondition(span >= 0, "a virtual clock never runs backwards")
        now += span
    }
}
