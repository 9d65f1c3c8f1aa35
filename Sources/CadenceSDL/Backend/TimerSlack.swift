import Cadence
import CThreadTiming

/// The kernel's timer slack for the calling thread.
///
/// Linux may fire a sleeping thread's timer up to its *slack* late (50 µs by
/// default) so that it can batch wake-ups and save power. A frame pacer wants
/// the opposite: every microsecond of oversleep is a microsecond the
/// `PreciseSleeper` must spin instead of sleep. Lowering the slack to its
/// minimum (1 ns) makes sleeps end nearer their deadlines, so the learned
/// margin, and with it the CPU spent spinning, shrinks. The slack belongs to
/// one thread: call ``minimize()`` on the thread that paces (the main thread).
@_spi(Programs) public enum TimerSlack {
    /// The calling thread's slack, or nil where the kernel has none (not Linux).
    public static var current: Nanoseconds? {
        let slack = cadence_timer_slack()
        return slack >= 0 ? Nanoseconds(slack) : nil
    }

    /// Sets the calling thread's slack to 1 ns, the smallest the kernel accepts
    /// (0 would mean "back to the default"). Returns the slack now in effect,
    /// or nil where it cannot be set; pacing then still works, with a wider margin.
    @discardableResult
    public static func minimize() -> Nanoseconds? {
        guard cadence_set_timer_slack(1) == 0 else { return nil }
        return current
    }
}
