#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Waits for an absolute deadline as precisely as a busy-wait and nearly as
/// cheaply as a sleep.
///
/// It sleeps on the clock until ``margin`` before the deadline, then spins,
/// yielding the core, for the rest. The margin is learned: after each sleep
/// the observed oversleep is kept in a short window and the margin becomes the
/// largest recent oversleep plus a little, within bounds. Deadlines are
/// absolute, so an error in one frame never carries into the next.
public final class PreciseSleeper {
    /// The clock slept on and read.
    public let clock: FrameClock
    /// How long before the deadline the sleep ends and the spin begins.
    public private(set) var margin: Nanoseconds
    /// The narrowest and widest margins the learning may choose.
    public let marginBounds: ClosedRange<Nanoseconds>
    /// Added to the largest recent oversleep when learning the margin.
    public let safety: Nanoseconds

    private var oversleeps: [Nanoseconds] = []
    private var next = 0
    private let window = 64
    private let spin: () -> Void

    /// A sleeper on `clock`; `spin` runs between checks of the clock in the
    /// final stretch (by default it yields the core to other threads).
    public init(clock: FrameClock, initialMargin: Nanoseconds = 1_000_000,
                marginBounds: ClosedRange<Nanoseconds> = 50_000...4_000_000, safety: Nanoseconds = 100_000,
                spin: @escaping () -> Void = { _ = sched_yield() }) {
        self.clock = clock
        self.marginBounds = marginBounds
        self.safety = safety
        self.margin = min(max(initialMargin, marginBounds.lowerBound), marginBounds.upperBound)
        self.spin = spin
    }

    /// Returns at `deadline` or just after; the lateness, in ns (0 or more).
    @discardableResult
    public func wait(until deadline: Nanoseconds) -> Nanoseconds {
        let wakeAt = deadline - margin
        if clock.now < wakeAt {
            clock.sleep(until: wakeAt)
            learn(oversleep: clock.now - wakeAt)
        }
        var now = clock.now
        while now < deadline {
            spin()
            now = clock.now
        }
        return now - deadline
    }

    /// Keeps `oversleep` and re-derives the margin from the recent window.
    private func learn(oversleep: Nanoseconds) {
        if oversleeps.count < window { oversleeps.append(max(0, oversleep)) } else {
            oversleeps[next] = max(0, oversleep)
            next = (next + 1) % window
        }
        let wanted = (oversleeps.max() ?? 0) + safety
        margin = min(max(wanted, marginBounds.lowerBound), marginBounds.upperBound)
    }
}
