@_spi(Programs) import Cadence

/// One vblank as a platform's clock reports it: X Present's (MSC, UST), or
/// the vblank a Wayland compositor presented a frame on.
struct VblankTick: Equatable {
    /// The platform's vblank counter (X Present's MSC, the Wayland output's
    /// sequence); 0 where it keeps none.
    let counter: Int64
    /// When the vblank was, on `CLOCK_MONOTONIC`; 0 where the platform gives
    /// no time (XWayland 24 answers every question with UST 0).
    let time: Nanoseconds
    /// The output's refresh interval as the compositor states it; 0 when not stated.
    var refresh: Nanoseconds = 0
    /// Whether the frame was shown on a vblank (Wayland's vsync flag): a
    /// compositor that repaints on demand has none. X Present's ticks are vblanks.
    var vsynced = true
}

/// A platform clock's watcher as the display clocks read it: ticks in, read
/// once a frame, never blocking. In a game the C watchers stand behind it
/// (`Sources/CXPresentClock`, `Sources/CWaylandPresentation`); a test feeds
/// recorded or synthetic ticks, so the clocks are judged without a display server.
protocol VblankTickSource: AnyObject {
    /// The ticks that arrived since the last read, oldest first (a watcher
    /// may keep only the latest); nil once the connection broke.
    func readTicks() -> [VblankTick]?
}

/// A watcher that also reports when each frame reached the glass (Wayland's
/// `wp_presentation` feedback).
protocol FrameFeedbackSource: VblankTickSource {
    /// Asks for the next frame's report: call right before presenting it.
    /// The ticket the report will carry, nil when none was asked.
    func requestFeedback() -> Int?
    /// The per-frame reports the reads brought, once each, oldest first.
    func takeReports() -> [GlassFeedback]
    /// How many frames the compositor discarded (never showed).
    var discardedFrames: Int { get }
}
