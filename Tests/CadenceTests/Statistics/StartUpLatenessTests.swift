import Testing
@_spi(Programs) @testable import Cadence

/// The run's start-up: frames the link planned before it knew the display's
/// grid are not the game's late frames when the grid then becomes known, and
/// are when it never does (vsync off).
@Suite("Late frames of the run's start-up")
struct StartUpLatenessTests {
    private static let ms: Nanoseconds = 1_000_000
    /// 60 Hz: 16 666 667 ns, the refresh interval every record here is spaced by.
    private static let interval: Nanoseconds = 16_666_667

    /// Frame `i`, shown (or, with no glass, submitted) at `i` intervals after
    /// 1 s, `late` after its target, planned on a grid or not.
    private func record(_ i: Int, late: Nanoseconds, grid: Bool) -> FrameRecord {
        let shown = 1_000_000_000 + Nanoseconds(i) * Self.interval
        return FrameRecord(frame: i, timestamp: shown - Self.interval, targetTimestamp: shown - late, presentTime: shown,
                           delta: Self.interval, limit: .displayRate, rate: FrameRate(hz: 60), refreshMode: grid ? .fixed : .none,
                           callbackStart: shown - Self.interval, workEnd: shown - late, presentSubmit: shown,
                           skippedFrames: 0, rateReason: .displayRate,
                           glassSource: grid ? .vblank : .inferred)
    }

    @Test("Three frames planned with no grid, 10 ms late, then 27 on a grid on time: none late, hitch ratio 0")
    func startUpBeforeTheGridIsNotLate() {
        var statistics = FrameStatistics()
        for i in 0..<3 { statistics.record(record(i, late: 10 * Self.ms, grid: false)) }
        // Until a frame says whether a grid follows, the three count.
        #expect(statistics.lateCount == 3)
        for i in 3..<30 { statistics.record(record(i, late: 0, grid: true)) }
        #expect(statistics.lateCount == 0)
        #expect(statistics.hitchRatio == 0)
        #expect(statistics.runSummary.lateFrames == 0)
    }

    @Test("A frame on the grid late after the start-up still counts: 4 ms over 30 frames of 16.67 ms is 8.0 ms/s")
    func lateOnTheGridCounts() {
        var statistics = FrameStatistics()
        for i in 0..<3 { statistics.record(record(i, late: 10 * Self.ms, grid: false)) }
        for i in 3..<30 { statistics.record(record(i, late: i == 20 ? 4 * Self.ms : 0, grid: true)) }
        #expect(statistics.lateCount == 1)
        // The frames cover 30 intervals (the first from its timestamp): 500 ms; 4 ms of it late.
        #expect(abs(statistics.hitchRatio - 4.0 / 0.5) < 1e-6)
    }

    @Test("Vsync off: no frame is ever planned on a grid, so late frames count, in the first second and after")
    func withNoGridLateFramesCount() {
        var statistics = FrameStatistics()
        // 90 frames, 1.5 s: frames 1, 2 and 80 submitted 10 ms late.
        for i in 0..<90 { statistics.record(record(i, late: [1, 2, 80].contains(i) ? 10 * Self.ms : 0, grid: false)) }
        #expect(statistics.lateCount == 3)
        #expect(statistics.runSummary.lateFrames == 3)
        // 30 ms late over 90 intervals (1.5 s): 20 ms/s.
        #expect(abs(statistics.hitchRatio - 30.0 / 1.5) < 1e-6)
    }
}
