import CWaylandPresentation
@_spi(Programs) import Cadence

/// The display's clock on native Wayland, from the compositor's
/// `wp_presentation` feedback: for every frame, when it reached the screen,
/// the output's vblank counter and its refresh interval, read on a private
/// event queue of SDL's `wl_display` (see `Sources/CWaylandPresentation`).
@_spi(Programs) public final class WaylandPresentationClock {
    private let watcher: OpaquePointer
    private var fit = VblankCounterFit()
    private var estimator: VsyncEstimator?
    private var held: VsyncGrid?
    private var latest: (time: Nanoseconds, refresh: Nanoseconds)?
    /// Whether the latest frame was shown on a vblank (the feedback's vsync
    /// flag). A compositor without it (Mutter's headless virtual monitor)
    /// repaints on demand: its output has no vblank grid, and a frame is
    /// shown soon after it is presented.
    public private(set) var isVsynced = true
    /// Whether the connection broke (the compositor went away).
    public private(set) var isBroken = false

    /// Watches `window`; nil when SDL does not run it on Wayland or the
    /// compositor does not offer presentation-time on CLOCK_MONOTONIC or
    /// CLOCK_MONOTONIC_RAW (Weston's software-timed outputs; converted to CLOCK_MONOTONIC).
    public init?(window: Window) {
        guard let watcher = cadence_wl_presentation_open(window.handle) else { return nil }
        self.watcher = watcher
    }

    deinit { cadence_wl_presentation_close(watcher) }

    /// Asks for the next frame's feedback: call right before presenting it.
    /// Returns the ticket its report will carry, nil when none was asked.
    public func willPresent() -> Int? {
        let ticket = cadence_wl_presentation_request(watcher)
        return ticket > 0 ? Int(truncatingIfNeeded: ticket) : nil
    }

    /// The per-frame reports that arrived: when each frame reached the glass
    /// (nil for one the compositor discarded), read without blocking.
    public func takeReports() -> [GlassFeedback] {
        _ = grid()
        var reports: [GlassFeedback] = []
        var ticket: UInt64 = 0, time: Int64 = 0
        while true {
            let shown = cadence_wl_presentation_next_report(watcher, &ticket, &time)
            guard shown >= 0 else { return reports }
            reports.append(GlassFeedback(ticket: Int(truncatingIfNeeded: ticket), glassTime: shown == 1 ? time : nil))
        }
    }

    /// How many frames the compositor discarded (never showed).
    public var discardedFrames: Int { Int(cadence_wl_presentation_discarded(watcher)) }

    /// Reads the feedback that arrived and returns the output's vblank grid:
    /// the presentation times fitted to a grid at the refresh interval the
    /// compositor gives (Cadence's `VsyncEstimator`: a headless output's repaints
    /// jitter by milliseconds around its timer, and its sequence may count only
    /// the repaints it made, as Mutter's virtual monitor's does), else fitted
    /// to (sequence, time); nil until known.
    /// The output's refresh interval as a rate, once feedback gave one.
    public var refreshRate: FrameRate? {
        latest.flatMap { $0.refresh > 0 ? FrameRate(period: $0.refresh) : nil }
    }

    public func grid() -> VsyncGrid? {
        var time: Int64 = 0, sequence: UInt64 = 0, refresh: UInt32 = 0, flags: UInt32 = 0
        let presented = cadence_wl_presentation_poll(watcher, &time, &sequence, &refresh, &flags)
        if presented < 0 {
            isBroken = true
            return nil
        }
        if presented > 0 {
            latest = (time, Nanoseconds(refresh))
            isVsynced = flags & 1 != 0
            if sequence > 0 { fit.add(counter: Int64(truncatingIfNeeded: sequence), time: time) }
            if refresh > 0 {
                if estimator?.nominal.period != Nanoseconds(refresh) {
                    estimator = VsyncEstimator(nominal: FrameRate(period: Nanoseconds(refresh)))
                }
                estimator?.addPresent(at: time)
            }
        }
        let fresh = estimator?.grid ?? latest.flatMap { latest in
            latest.refresh > 0 ? VsyncGrid(origin: latest.time, rate: FrameRate(period: latest.refresh), measured: true) : nil
        } ?? fit.grid()
        guard let fresh else { return nil }
        // As with the X Present clock: keep the grid in use while it agrees
        // with the newest feedback, so plans made on it stay on the same vblank.
        if let held, abs(held.time(at: held.nearestIndex(to: fresh.origin)) - fresh.origin) <= XPresentClock.phaseTolerance {
            return held
        }
        held = fresh
        return fresh
    }
}
