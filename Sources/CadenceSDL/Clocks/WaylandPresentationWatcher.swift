import CWaylandPresentation
@_spi(Programs) import Cadence

/// The C watcher of `wp_presentation` feedback (`Sources/CWaylandPresentation`)
/// as a ``FrameFeedbackSource``: on a private event queue of SDL's
/// `wl_display`, so SDL's queue is untouched.
final class WaylandPresentationWatcher: FrameFeedbackSource {
    private let watcher: OpaquePointer

    /// Watches `window`; nil when SDL does not run it on Wayland or the
    /// compositor does not offer presentation-time on CLOCK_MONOTONIC or
    /// CLOCK_MONOTONIC_RAW (Weston's software-timed outputs; converted to CLOCK_MONOTONIC).
    init?(window: Window) {
        guard let watcher = cadence_wl_presentation_open(window.handle) else { return nil }
        self.watcher = watcher
    }

    deinit { cadence_wl_presentation_close(watcher) }

    func readTicks() -> [VblankTick]? {
        var time: Int64 = 0, sequence: UInt64 = 0, refresh: UInt32 = 0, flags: UInt32 = 0
        let presented = cadence_wl_presentation_poll(watcher, &time, &sequence, &refresh, &flags)
        if presented < 0 { return nil }
        guard presented > 0 else { return [] }
        return [VblankTick(counter: Int64(truncatingIfNeeded: sequence), time: time,
                           refresh: Nanoseconds(refresh), vsynced: flags & 1 != 0)]
    }

    func requestFeedback() -> Int? {
        let ticket = cadence_wl_presentation_request(watcher)
        return ticket > 0 ? Int(truncatingIfNeeded: ticket) : nil
    }

    func takeReports() -> [GlassFeedback] {
        var reports: [GlassFeedback] = []
        var ticket: UInt64 = 0, time: Int64 = 0
        while true {
            let shown = cadence_wl_presentation_next_report(watcher, &ticket, &time)
            guard shown >= 0 else { return reports }
            reports.append(GlassFeedback(ticket: Int(truncatingIfNeeded: ticket), glassTime: shown == 1 ? time : nil))
        }
    }

    var discardedFrames: Int { Int(cadence_wl_presentation_discarded(watcher)) }
}
