@_spi(Programs) import Cadence

/// What the next frame waited on a display that stopped answering: its
/// server stopped, or grabbed by another client, SDL blocks inside a call
/// until it answers again. A connection that is gone ends the run (see
/// `PresentWatchdog`); one that is only slow is waited for, and the frame
/// that waited is a pause (``PresentOutcome/displayWait``): the loop learns
/// nothing from it, the statistics count no interval, late frame or hitch
/// for it, and the trace says how long it waited.
struct DisplayWaits {
    /// How long a call into SDL may block before it counts as a wait on the
    /// display: far past any refresh, and shorter than a freeze a player
    /// would notice as one.
    static let notice: Nanoseconds = 1_000_000_000

    private var pending: Nanoseconds = 0

    /// A call into SDL (a present, a flush, an event poll) took `duration`.
    mutating func note(_ duration: Nanoseconds) {
        if duration >= Self.notice { pending += duration }
    }

    /// A call into SDL, timed on `clock`.
    mutating func time(on clock: FrameClock, _ call: () -> Void) {
        let start = clock.now
        call()
        note(clock.now - start)
    }

    /// What the frame presented now waited, its present having taken
    /// `present`; nil if nothing. Starts over.
    mutating func take(adding present: Nanoseconds) -> Nanoseconds? {
        note(present)
        defer { pending = 0 }
        return pending > 0 ? pending : nil
    }
}

extension SDLBackend {
    /// A call into SDL outside the present (an event poll) took `duration`:
    /// a wait on a display that stopped answering, if long (`DisplayWaits`).
    public func displayWaited(_ duration: Nanoseconds) { waits.note(duration) }
}
