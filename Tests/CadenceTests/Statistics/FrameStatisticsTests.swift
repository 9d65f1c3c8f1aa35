import Testing
@_spi(Programs) @testable import Cadence

@Suite("Frame statistics")
struct FrameStatisticsTests {
    private func record(_ frame: Int, shownAt: Nanoseconds, target: Nanoseconds? = nil, hz: Double? = 60) -> FrameRecord {
        FrameRecord(frame: frame, timestamp: 0, targetTimestamp: target ?? shownAt, presentTime: shownAt, delta: 0,
                    limit: .displayRate, rate: hz.map { FrameRate(hz: $0) }, refreshMode: .fixed,
                    callbackStart: shownAt - 3 * ms, workEnd: 0, presentSubmit: 0, skippedFrames: 0)
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
        #expect(stats.hitchCount == 1)
        // 1 µs buckets: the median is the 60 Hz interval to the microsecond.
        #expect(abs(summary.p50Interval! - period) <= 1_000)
        #expect(summary.line.hasPrefix("frames 100, achieved "))
        #expect("\(summary)".hasPrefix("frames 100, achieved "), "printing a summary prints its line")
        #expect(summary.line.contains(", interval p50 16.66"))
        #expect(summary.line.contains(", late 1, hitch ratio 1.2 ms/s,"), "2 ms late in 101 intervals + 2 ms: \(summary.line)")
        // Recent percentiles are real intervals (nearest rank): the median a
        // 60 Hz interval, the largest the three-interval hitch.
        let recent = stats.intervalPercentiles([0.5, 1.0])
        #expect(recent[0] == period || recent[0] == period + 1)
        #expect(recent[1]! >= 3 * period)
        #expect(FrameStatistics().intervalPercentiles([0.5]) == [nil])
    }

    @Test("The hitch ratio counts lateness and time over the same frames, so it never passes 1000 ms/s")
    func hitchRatioBounded() {
        // 60 Hz, the link starting at 0: frame 0 targets 16.667 ms but its
        // 100 ms of work put it on the glass at 116.667 ms (six intervals
        // later, held to the cadence); frame 1 follows on time one interval on.
        let period = hz(60).period
        func frame(_ i: Int, timestamp: Nanoseconds, target: Nanoseconds, shown: Nanoseconds) -> FrameRecord {
            FrameRecord(frame: i, timestamp: timestamp, targetTimestamp: target, presentTime: shown, delta: period,
                        limit: .displayRate, rate: hz(60), refreshMode: .fixed,
                        callbackStart: timestamp, workEnd: 0, presentSubmit: 0, skippedFrames: 0)
        }
        var two = FrameStatistics()
        two.record(frame(0, timestamp: 0, target: period, shown: 7 * period))
        two.record(frame(1, timestamp: 7 * period, target: 8 * period, shown: 8 * period))
        // 6 intervals late over the 8 intervals from the link's start to the last present: 750 ms/s.
        #expect(two.runSummary.lateFrames == 1)
        #expect(abs(two.runSummary.hitchRatio - 750) < 1e-6, "\(two.runSummary.hitchRatio)")

        // A single frame a second late: late 1, and a ratio that says so.
        var one = FrameStatistics()
        one.record(frame(0, timestamp: 0, target: period, shown: period + 1_000 * ms))
        let expected = 1_000.0 * 1_000 / (1_000 + Double(period) / 1e6)      // ms late per second covered
        #expect(one.runSummary.lateFrames == 1)
        #expect(abs(one.runSummary.hitchRatio - expected) < 1e-6, "\(one.runSummary.hitchRatio) vs \(expected)")

        // Whatever the records claim, lateness beyond the time a frame covers is not counted.
        var odd = FrameStatistics()
        odd.record(frame(0, timestamp: 50 * ms, target: 0, shown: 60 * ms))
        odd.record(frame(1, timestamp: 60 * ms, target: 0, shown: 70 * ms))
        #expect(odd.runSummary.hitchRatio <= 1_000)
    }

    @Test("Memory stays flat: ten simulated minutes at 240 Hz keep only the recent window")
    func boundedMemory() {
        var stats = FrameStatistics(recentCapacity: 600)
        let grid = VsyncGrid(origin: 0, rate: hz(240))
        for k in 0..<Int64(240 * 600) { stats.record(record(Int(k), shownAt: grid.time(at: k), hz: 240)) }
        #expect(stats.recentPresentIntervals.count == 600)
        #expect(stats.runSummary.frames == 240 * 600)
        #expect(abs(stats.runSummary.p99Interval! - hz(240).period) <= 1_000)
        #expect(stats.hitchCount == 0)
    }

    @Test("A hitch is an interval past one and a half planned ones: 15 ms of a 10 ms plan is none, 1 ns more is one")
    func hitchRule() {
        #expect(!FrameStatistics.isHitch(interval: 15 * ms, planned: 10 * ms))
        #expect(FrameStatistics.isHitch(interval: 15 * ms + 1, planned: 10 * ms))
        #expect(!FrameStatistics.isHitch(interval: 10 * ms, planned: 10 * ms))
    }

    @Test("After a pause the first frame has no interval, so the pause is not a hitch")
    func segments() {
        var stats = FrameStatistics()
        stats.record(record(0, shownAt: 0))
        stats.resetInterval()
        stats.record(record(1, shownAt: 5_000 * ms))
        #expect(stats.recentPresentIntervals.count == 2)
        #expect(stats.recentPresentIntervals.allSatisfy { $0 == nil })
        #expect(stats.hitchCount == 0)
        #expect(stats.achievedFPS == nil, "one frame in the new segment has no rate")
        #expect(stats.runSummary.achievedFPS == nil, "the pause is not time spent showing frames")
    }

    @Test("Achieved rate, late frames and hitch ratio from glass time, worked by hand")
    func glassTimeFigures() {
        // 11 frames shown 20 ms apart: 10 intervals over 200 ms = 50 FPS.
        // Frames 3 and 7 reach the glass 4 ms and 10 ms after their targets;
        // frame 5 only 0.4 ms after, inside the 0.5 ms tolerance, so not late.
        // Hitch time 4 + 10 = 14 ms in 0.2 s of run: 70 ms per second.
        var stats = FrameStatistics()
        let lateness: [Int: Nanoseconds] = [3: 4 * ms, 5: 400_000, 7: 10 * ms]
        for k in 0...10 {
            let shown = Nanoseconds(k) * 20 * ms
            stats.record(record(k, shownAt: shown, target: shown - (lateness[k] ?? 0), hz: 60))
        }
        let summary = stats.runSummary
        #expect(summary.lateFrames == 2)
        #expect(summary.achievedFPS == 50)
        #expect(abs(summary.hitchRatio - 70) < 1e-9)
        // Every callback started 3 ms before its frame reached the glass: that
        // latency's 1 µs bucket is reported at its midpoint, 3 ms + 499 ns, printed to the µs.
        #expect(summary.line == "frames 11, achieved 50.00 FPS, interval p50 20.000 ms p99 20.000 ms, late 2, "
                + "hitch ratio 70.0 ms/s, latency p50 3.000 ms; glass times measured (the platform's per-frame feedback) 11")
        #expect(stats.achievedFPS == 50)
    }

    @Test("Achieved FPS counts the last second only: 50 FPS for 2 s, then 25 FPS for 1 s")
    func achievedOverTheLastSecond() {
        var stats = FrameStatistics()
        var k = 0
        for t in stride(from: 0, through: 2_000, by: 20) { stats.record(record(k, shownAt: Nanoseconds(t) * ms)); k += 1 }
        #expect(stats.achievedFPS == 50)
        for t in stride(from: 2_040, through: 3_000, by: 40) { stats.record(record(k, shownAt: Nanoseconds(t) * ms)); k += 1 }
        // The last second holds the presents at 2.000, 2.040, … 3.000 s: 26 presents, 25 intervals in 1 s.
        #expect(stats.achievedFPS == 25)
        // The whole run: 100 + 25 intervals in 3 s.
        #expect(stats.runSummary.line.hasPrefix("frames 126, achieved 41.67 FPS, interval p50 "))
        #expect(stats.runSummary.line.contains(" p99 40.000 ms, late 0, hitch ratio 0.0 ms/s"))
    }

    @Test func fixedPointFormatting() {
        #expect(fixedPoint(59.984, decimals: 2) == "59.98")
        #expect(fixedPoint(59.985_1, decimals: 2) == "59.99")
        #expect(fixedPoint(0.04, decimals: 1) == "0.0")
        #expect(fixedPoint(16.666_667, decimals: 3) == "16.667")
        #expect(fixedPoint(-1.25, decimals: 1) == "-1.3")
        #expect(fixedPoint(7, decimals: 0) == "7")
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
                                     limit: .cap(60), rate: hz(60), refreshMode: .fixed,
                                     callbackStart: start, workEnd: start, presentSubmit: shown, skippedFrames: 0))
        }
        #expect(abs(stats.runSummary.p50Latency! - period) <= 1_000)
        #expect(stats.recentLatencyPercentile(0.5) == 2_500_000)
        #expect(stats.runSummary.line.contains(", latency p50 16.667 ms; "))
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

    @Test("What held the rate, in one line: the latest paced frame's reason at its rate")
    func rateExplanation() {
        var statistics = FrameStatistics()
        #expect(statistics.rateExplanation == nil && statistics.rateReason == nil)
        var slow = record(0, shownAt: 20 * ms, hz: 48)
        slow.rateReason = .presents(reached: FrameRate(numerator: 125, denominator: 2))
        statistics.record(slow)
        #expect(statistics.rateExplanation == "presents reach 62.50/s: running at 48.00")
        var heavy = record(1, shownAt: 53 * ms, hz: 30)
        heavy.rateReason = .work(cost: 22_049_999)
        statistics.record(heavy)
        #expect(statistics.rateExplanation == "work 22.0 ms a frame: running at 30.00")
        var asked = record(2, shownAt: 86 * ms, hz: 28.8)
        asked.rateReason = .evenRate
        statistics.record(asked)
        #expect(statistics.rateExplanation == "28.80 FPS, the nearest rate the display shows evenly")
        // An unpaced frame (uncapped) keeps the last paced one's reason.
        statistics.record(record(3, shownAt: 90 * ms, hz: nil))
        #expect(statistics.rateReason == .evenRate)
    }
}
