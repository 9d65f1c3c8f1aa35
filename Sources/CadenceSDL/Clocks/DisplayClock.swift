@_spi(Programs) import Cadence

/// Where the real-time backend learns the display's vblanks: one clock,
/// chosen when the backend is made and whenever the display or its mode
/// changes (``SDLBackend/displayModeChanged(refreshHz:)``).
///
/// The clock reads the platform once a frame, right after the present returns
/// (``presented(submittedAt:returnedAt:)``), never between the presenter's
/// wait and the present, and never blocks. Everything else only reads what
/// that moment established, so asking for the timing is free and changes nothing.
protocol DisplayClock: AnyObject {
    /// What the display can do, as the last read found it.
    var timing: DisplayTiming { get }
    /// Where the vblanks come from, for the overlay and the trace.
    var source: DisplayClockSource { get }
    /// Why the timing is not vsync working as asked; nil when it is.
    var note: TimingNote? { get }
    /// Whether the grid is a stand-in until the platform's own arrives (the
    /// first frames on X Present or Wayland feedback): its phase may be off
    /// by any part of a refresh, so a frame must not go out before its target.
    var isProvisional: Bool { get }
    /// Why the platform's clock was found not to tick, so the estimate
    /// stands in for it; nil where it ticks or there is none.
    var absence: ClockAbsence? { get }

    /// How long before its vblank on this clock's grid of `period` a frame
    /// is presented with vsync on (see `PresentPlan`); nil for half a refresh.
    func vsyncLead(period: Nanoseconds) -> Nanoseconds?

    /// Asks the platform to report the frame about to be presented; the
    /// ticket the report will carry, nil when none was asked.
    func willPresent() -> Int?

    /// The frame presented at `submitted` returned at `returned`: reads the
    /// platform (the frame's one read) and says when the frame reaches the
    /// glass and how that is known.
    func presented(submittedAt submitted: Nanoseconds, returnedAt returned: Nanoseconds) -> GlassEstimate

    /// The per-frame reports that the last read brought, once each.
    func takeReports() -> [GlassFeedback]

    /// Reads what the platform sent by `now`, without blocking, as the read
    /// after a present does (``presented(submittedAt:returnedAt:)``).
    func read(at now: Nanoseconds)

    /// Whether the grid is a compositor's repaint timer (see `FrameBackend.gridIsRepaintTimer`).
    var gridIsRepaintTimer: Bool { get }
}

extension DisplayClock {
    var isProvisional: Bool { false }
    var absence: ClockAbsence? { nil }
    func vsyncLead(period: Nanoseconds) -> Nanoseconds? { nil }
    func willPresent() -> Int? { nil }
    func takeReports() -> [GlassFeedback] { [] }
    func read(at now: Nanoseconds) {}
    var gridIsRepaintTimer: Bool { false }

    /// While the grid is a stand-in (``isProvisional``), reads the platform
    /// every millisecond on `clock` until its own grid arrives or `deadline`
    /// passes (see `SDLBackend.awaitOwnGrid(after:)`).
    func awaitOwnGrid(until deadline: Nanoseconds, on clock: FrameClock) {
        _ = read(until: deadline, on: clock) { isProvisional ? nil : () }
    }

    /// Reads the platform every millisecond on `clock` until `found` finds
    /// what it looks for (a report, the clock's own grid) or `deadline`
    /// passes: nil then.
    func read<Found>(until deadline: Nanoseconds, on clock: FrameClock, for found: () -> Found?) -> Found? {
        while true {
            if let value = found() { return value }
            guard clock.now < deadline else { return nil }
            clock.sleep(until: min(deadline, clock.now + 1_000_000))
            read(at: clock.now)
        }
    }
}

/// When a frame reaches the glass, as a display clock knows it.
struct GlassEstimate: Equatable {
    /// The vblank (or moment) the frame is taken as shown.
    let time: Nanoseconds
    /// How that is known.
    let source: GlassTimeSource

    /// No glass to speak of: the frame is taken as shown when its present returned.
    static func inferred(_ returned: Nanoseconds) -> GlassEstimate {
        GlassEstimate(time: returned, source: .inferred)
    }

    /// The first vblank of `grid` at or after `returned`: a frame whose copy
    /// has ended is shown at the next vblank.
    static func firstVblank(of grid: VsyncGrid, after returned: Nanoseconds, source: GlassTimeSource) -> GlassEstimate {
        GlassEstimate(time: grid.time(at: grid.index(atOrAfter: returned)), source: source)
    }
}
