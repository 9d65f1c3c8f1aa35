import Testing
@_spi(Programs) @testable import Cadence

/// Behind a compositor whose reports give no vblank grid the loop paces on its
/// own timer and learns no latency: each target is its slot, and a frame the
/// compositor shows later is late, never early, its cap kept. In virtual time,
/// presents returning at once as a Wayland client's do; the truth is the
/// simulated display's own flips.
@MainActor
@Suite("The present path's latency without a grid")
struct PathLatencyWithoutGridTests {
    static let period = FrameRate(numerator: 60).period

    /// `frames` frames at `fps` on `display` with no vblank grid, presents
    /// returning at once (see `PathLatencyTests.run`).
    func run(_ display: SimulatedDisplay, fps: Double, frames: Int,
             work: @escaping (Int) -> Nanoseconds = { _ in 2 * ms }) -> (records: [FrameRecord], flips: [Nanoseconds]) {
        PathLatencyTests().run(display, fps: fps, frames: frames, presentsReturnAtOnce: true, work: work)
    }

    /// The compositor's refresh is 1/60 s rounded to a nanosecond, the timer's
    /// slots exact: a few hundred frames drift apart by under a microsecond.
    static let rounding: Nanoseconds = 1000

    /// Every target is its slot, no frame is on the glass before it, and
    /// targets are the cap's interval apart (none closer: a cap is a cap).
    func expectSlotsKept(_ records: [FrameRecord], _ flips: [Nanoseconds], fps: Double) {
        for record in records {
            #expect(record.pathLatency == 0, "frame \(record.frame) planned on \(record.pathLatency) ns")
            #expect(flips[record.frame] >= record.targetTimestamp, "frame \(record.frame) early")
        }
        let targets = records.map(\.targetTimestamp)
        for i in 1..<targets.count { #expect(Double(targets[i] - targets[i - 1]) >= 1e9 / fps - Double(Self.rounding)) }
    }

    @Test("A compositor that shows each commit a refresh after it (Mutter's headless monitor while its frame clock runs): targets at the slots, each frame a refresh late, none early", arguments: [60.0, 30.0])
    func aRefreshAfterTheCommit(fps: Double) {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)), vsync: false)
        display.repaintOnDemand = (delay: Self.period, interval: Self.period)
        let (records, flips) = run(display, fps: fps, frames: 120)
        expectSlotsKept(records, flips, fps: fps)
        for record in records.dropFirst() {
            #expect(abs(flips[record.frame] - record.targetTimestamp - Self.period) <= Self.rounding)
        }
    }

    /// Weston's headless output: its timer ticks a refresh apart and repaints
    /// 7 ms before a tick, or idles when nothing came by then.
    static func weston() -> SimulatedDisplay {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)), vsync: false)
        display.repaintTimer = (interval: period, window: 7 * ms)
        return display
    }

    @Test("A compositor that repaints on a timer which restarts when idle (Weston's headless output): targets at the slots, none early, shown at the rate", arguments: [60.0, 30.0])
    func aTimerThatRestarts(fps: Double) {
        let (records, flips) = run(Self.weston(), fps: fps, frames: 120)
        expectSlotsKept(records, flips, fps: fps)
        let shown = records.dropFirst(2).map { flips[$0.frame] }
        for i in 1..<shown.count { #expect(abs(Double(shown[i] - shown[i - 1]) - 1e9 / fps) <= Double(Self.rounding)) }
    }

    @Test("A path whose delay changes (an idle compositor's render time 2, then 5, then 2 ms): nothing learned, so no frame early when it falls back")
    func aChangingDelay() {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)), vsync: false)
        display.repaintOnDemand = (delay: 2 * ms, interval: Self.period)
        let (records, flips) = run(display, fps: 30, frames: 120, work: { frame in
            if frame == 40 { display.repaintOnDemand = (delay: 5 * ms, interval: Self.period) }
            if frame == 80 { display.repaintOnDemand = (delay: 2 * ms, interval: Self.period) }
            return 2 * ms
        })
        expectSlotsKept(records, flips, fps: 30)
    }
}
