import Testing
@testable import Cadence

@Suite("Frame statistics")
struct FrameStatisticsTests {
    private func record(_ frame: Int, shownAt: Nanoseconds, target: Nanoseconds? = nil, hz: Double = 60) -> FrameRecord {
        FrameRecord(frame: frame, timestamp: 0, targetTimestamp: target ?? shownAt, presentTime: shownAt, delta: 0,
                    fpsCap: 0, effectiveHz: hz, refreshMode: .fixed, angle: 0,
                    callbackStart: 0, workEnd: 0, presentSubmit: 0, skippedFrames: 0)
    }

    @Test("Intervals, late frames and hitches are counted from present times")
    func counts() {
        var stats = FrameStatistics()
        let period = hz(60).period
        var t: Nanoseconds = 0
        for i in 0..<100 {
            t += i == 50 ? 3 * period : period          // one hitch: two frames missed
            let late = i == 70 ? 2 * ms : 0             // one frame 2 ms after its target
            stats.record(record(i, shownAt: t + late, target: t))
            if i == 70 { t += late }
        }
        let summary = stats.runSummary
        #expect(summary.frames == 100)
        #expect(summary.lateFrames == 1)
        #expect(summary.hitches == 1)
        // 1 µs buckets: the median is the 60 Hz interval to the microsecond.
        #expect(abs(summary.p50Interval! - period) <= 1_000)
        #expect(summary.line.hasPrefix("frames 100, interval p50 16.66"))
        // Recent percentiles are real intervals (nearest rank): the median a
        // 60 Hz interval, the largest the three-interval hitch.
        let recent = stats.intervalPercentiles([0.5, 1.0])
        #expect(recent[0] == period || recent[0] == period + 1)
        #expect(recent[1]! >= 3 * period)
        #expect(stats.hitchCount == summary.hitches)
        #expect(FrameStatistics().intervalPercentiles([0.5]) == [nil])
    }

    @Test("Memory stays flat: ten simulated minutes at 240 Hz keep only the recent window")
    func boundedMemory() {
        var stats = FrameStatistics(recentCapacity: 600)
        let grid = VsyncGrid(origin: 0, rate: hz(240))
        for k in 0..<Int64(240 * 600) { stats.record(record(Int(k), shownAt: grid.time(at: k), hz: 240)) }
        #expect(stats.recentPresentIntervals.count == 600)
        #expect(stats.runSummary.frames == 240 * 600)
        #expect(abs(stats.runSummary.p99Interval! - hz(240).period) <= 1_000)
        #expect(stats.runSummary.hitches == 0)
    }

    @Test("After a pause the first frame has no interval, so the pause is not a hitch")
    func segments() {
        var stats = FrameStatistics()
        stats.record(record(0, shownAt: 0))
        stats.resetInterval()
        stats.record(record(1, shownAt: 5_000 * ms))
        #expect(stats.recentPresentIntervals.count == 2)
        #expect(stats.recentPresentIntervals.allSatisfy { $0 == nil })
        #expect(stats.runSummary.hitches == 0)
    }

    @Test("Latency is callback start to present: the run's median in the summary, the recent one for the overlay")
    func latency() {
        var stats = FrameStatistics(recentCapacity: 10)
        #expect(stats.runSummary.p50Latency == nil)
        #expect(stats.recentLatencyPercentile(0.5) == nil)
        let period = hz(60).period
        for i in 0..<30 {
            let shown = Nanoseconds(i + 1) * period
            // 20 frames started a whole refresh before the glass, then 10 just 2.5 ms before.
            let start = shown - (i < 20 ? period : 2_500_000)
            stats.record(FrameRecord(frame: i, timestamp: 0, targetTimestamp: shown, presentTime: shown, delta: period,
                                     fpsCap: 60, effectiveHz: 60, refreshMode: .fixed, angle: 0,
                                     callbackStart: start, workEnd: start, presentSubmit: shown, skippedFrames: 0))
        }
        #expect(abs(stats.runSummary.p50Latency! - period) <= 1_000)
        #expect(stats.recentLatencyPercentile(0.5) == 2_500_000)
        #expect(stats.runSummary.line.hasSuffix(", latency p50 16.667 ms"))
    }

    @Test func histogramPercentilesAcrossFineAndCoarseBuckets() {
        var h = IntervalHistogram()
        for _ in 0..<98 { h.record(10 * ms) }
        h.record(250 * ms)
        h.record(20_000 * ms)        // past the coarse buckets: reported as the maximum
        #expect(abs(h.percentile(0.5)! - 10 * ms) <= 1_000)
        #expect(abs(h.percentile(0.99)! - 250 * ms) <= ms)
        #expect(h.percentile(1.0) == 20_000 * ms)
        #expect(IntervalHistogram().percentile(0.5) == nil)
    }
}
