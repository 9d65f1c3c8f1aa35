/// Running statistics over the frames of a run, in bounded memory, from when
/// the frames reached the glass.
///
/// Everything here is measured from each frame's ``FrameRecord/glassTime``,
/// never from the rate the link planned, and the summary counts the frames
/// by where that time came from (``GlassTimeSource``): a display that shows fewer frames than planned, or a present
/// that takes longer than a frame, shows up as a lower achieved rate, longer
/// intervals and late frames.
///
/// The overlay wants the last few seconds (the frame-time graph, recent
/// percentiles); the exit summary wants the whole run. Recent intervals live in
/// a ring buffer and whole-run percentiles in an `IntervalHistogram`, so a
/// game left running for hours uses the same memory as one run for a second.
public struct FrameStatistics: Sendable {
    /// How many recent intervals are kept for the graph and recent percentiles.
    public let recentCapacity: Int

    private var recent: RingBuffer<Nanoseconds?>
    private var recentLatency: RingBuffer<Nanoseconds>
    private var histogram = IntervalHistogram()
    private var latencyHistogram = IntervalHistogram()
    private var lastPresent: Nanoseconds?
    private var frames = 0
    private var late = 0
    private var hitches = 0
    private var hitchTime: Nanoseconds = 0
    /// The time the frames cover, for the hitch ratio: each frame's interval,
    /// and for the first frame of a segment the time from its `timestamp`.
    private var coveredTime: Nanoseconds = 0
    private var intervalCount = 0
    private var intervalSum: Nanoseconds = 0
    /// Present times of the last second (from `lastSecondStart` on), for the achieved rate.
    private var lastSecond: [Nanoseconds] = []
    private var lastSecondStart = 0
    /// The CPU figures of the frames that carry them, summed, and how many.
    private var cpuTotal: (sum: FrameCPU, frames: Int)?
    /// Frames by where their glass time came from.
    private var sources: [GlassTimeSource: Int] = [:]
    /// The latest paced frame's rate and what held it there.
    private var latestRate: (hz: Double, reason: RateReason)?
    /// The late frames of the run's start-up, held apart: frames planned with
    /// no display grid (refresh mode `none`) in its first second, before any
    /// frame planned on one. Where a frame planned on a grid follows, the link
    /// had not yet learned the grid (a display whose rate SDL does not report,
    /// until its clock's first vblanks): their targets were no slots on it, so
    /// their lateness is not the game's, and they are dropped. Where none
    /// follows (vsync off), they count. Nil once decided.
    private var startUp: (late: Int, hitchTime: Nanoseconds, causes: [LateCause: Int])? = (0, 0, [:])
    /// The late frames counted in ``lateCount`` by what made them late.
    private var causes: [LateCause: Int] = [:]
    private var runStart: Nanoseconds?
    /// How long a run's start-up lasts at most.
    public static let startUpSpan: Nanoseconds = 1_000_000_000

    /// Statistics keeping the last `recentCapacity` intervals (600 = 10 s at 60 Hz).
    public init(recentCapacity: Int = 600) {
        precondition(recentCapacity > 0, "keep at least one interval")
        self.recentCapacity = recentCapacity
        recent = RingBuffer(capacity: recentCapacity)
        recentLatency = RingBuffer(capacity: recentCapacity)
    }

    /// Adds one presented frame.
    ///
    /// Its interval is measured from the previous record's present time. A
    /// record after a pause (its `delta` is the link's first-frame interval but
    /// real time moved on) is told apart by `skippedFrames == 0` and a gap: the
    /// caller marks a new segment with ``resetInterval()``.
    public mutating func record(_ record: FrameRecord) {
        frames += 1
        sources[record.glassSource, default: 0] += 1
        if let cpu = record.cpu {
            cpuTotal = cpuTotal.map { ($0.sum + cpu, $0.frames + 1) } ?? (cpu, 1)
        }
        // A frame that waited on a display that stopped answering is a pause:
        // no interval, no lateness, no hitch; the next frame starts a segment.
        if record.displayWait != nil {
            resetInterval()
            return
        }
        if let rate = record.rate { latestRate = (rate.hz, record.rateReason) }
        // The time this frame covers on the glass: since the previous present,
        // or for a segment's first frame since the link's previous frame
        // (`timestamp`). Its lateness counts over that same time, so hitch
        // time can never exceed the time it is a ratio of.
        let glass = record.glassTime
        let covered = max(0, glass - (lastPresent ?? record.timestamp))
        coveredTime += covered
        decideStartUp(record)
        if record.isLate() {
            let cause = LateCause(of: record)
            if startUp != nil {
                startUp!.late += 1
                startUp!.hitchTime += min(record.lateness, covered)
                startUp!.causes[cause, default: 0] += 1
            } else {
                late += 1
                hitchTime += min(record.lateness, covered)
                causes[cause, default: 0] += 1
            }
        }
        var interval: Nanoseconds?
        if let last = lastPresent {
            let span = max(0, glass - last)
            interval = span
            histogram.record(span)
            intervalCount += 1
            intervalSum += span
            let expected = record.rate?.period ?? span
            if Self.isHitch(interval: span, planned: expected) { hitches += 1 }
        }
        lastPresent = glass
        latencyHistogram.record(record.inputToGlass)
        rememberForLastSecond(glass)
        recent.append(interval)
        recentLatency.append(record.inputToGlass)
    }

    /// Ends the start-up at a frame planned on a grid (dropping its late
    /// frames) or at its first second's end (counting them).
    private mutating func decideStartUp(_ record: FrameRecord) {
        guard let held = startUp else { return }
        let start = runStart ?? record.timestamp
        runStart = start
        if record.refreshMode != .none {
            startUp = nil
        } else if record.glassTime - start > Self.startUpSpan {
            late += held.late
            hitchTime += held.hitchTime
            causes.merge(held.causes, uniquingKeysWith: +)
            startUp = nil
        }
    }

    /// Starts a new segment: the next frame has no interval (after a pause,
    /// where the time spent paused is not a frame interval).
    public mutating func resetInterval() {
        lastPresent = nil
        lastSecond.removeAll(keepingCapacity: true)
        lastSecondStart = 0
    }

    private mutating func rememberForLastSecond(_ glassTime: Nanoseconds) {
        lastSecond.append(max(glassTime, lastSecond.last ?? glassTime))
        while glassTime - lastSecond[lastSecondStart] > TimeUnit.nanosecondsPerSecond { lastSecondStart += 1 }
        // Drop the expired times now and then, not on every frame.
        if lastSecondStart > 1_024 {
            lastSecond.removeFirst(lastSecondStart)
            lastSecondStart = 0
        }
    }

    /// Frames per second that reached the glass in the last second: the
    /// presents of the last second, as intervals over the time they span (so
    /// the figure is right from the second frame on, before a whole second has
    /// passed). Nil before two frames in the current segment.
    public var achievedFPS: Double? {
        let count = lastSecond.count - lastSecondStart
        guard count >= 2 else { return nil }
        let span = lastSecond[lastSecond.count - 1] - lastSecond[lastSecondStart]
        guard span > 0 else { return nil }
        return Double(count - 1) * 1e9 / Double(span)
    }

    /// Recent present-to-present intervals, oldest first; nil where a frame
    /// had no predecessor.
    public var recentPresentIntervals: [Nanoseconds?] { recent.elements }

    /// The recent intervals at each quantile of `qs` (0…1), sorted once for
    /// all of them; nil entries when there are no intervals yet.
    public func intervalPercentiles(_ qs: [Double]) -> [Nanoseconds?] {
        let values = recentPresentIntervals.compactMap { $0 }.sorted()
        return qs.map { values.nearestRank($0) }
    }

    /// The recent frames' input-to-glass latency at quantile `q` (0…1), for
    /// the overlay; nil before the first frame.
    public func recentLatencyPercentile(_ q: Double) -> Nanoseconds? {
        recentLatency.elements.sorted().nearestRank(q)
    }

    /// What held the latest paced frame's rate (nil before one): the request,
    /// the display, the present path or the game's work.
    public var rateReason: RateReason? { latestRate?.reason }

    /// Why the latest paced frame ran at its rate, in one line for an
    /// overlay ("presents reach 16.00/s: running at 15.00"); nil before one.
    public var rateExplanation: String? {
        latestRate.map { $0.reason.sentence(runningAt: $0.hz) }
    }

    /// The mean ``FrameCPU`` of the frames so far that carry one (each
    /// figure over their count; shares of a core are ratios to its `span`);
    /// nil with none. Cheap enough for a per-frame overlay.
    public var cpuPerFrame: FrameCPU? {
        guard let (sum, n) = cpuTotal else { return nil }
        let count = Nanoseconds(n)
        return FrameCPU(work: sum.work / count, pacing: sum.pacing / count, loop: sum.loop / count,
                        span: sum.span / count)
    }

    /// Frames so far that were late (see ``FrameRecord/lateness``); cheap, unlike ``runSummary``.
    public var lateCount: Int { late + (startUp?.late ?? 0) }

    /// The frames of ``lateCount`` by what made each late.
    package var lateCauses: [LateCause: Int] { causes.merging(startUp?.causes ?? [:], uniquingKeysWith: +) }

    /// Frames so far by where their glass time came from.
    public var glassSources: [GlassTimeSource: Int] { sources }

    /// Intervals so far that were hitches (``isHitch(interval:planned:)``).
    /// Cheap enough for a per-frame overlay, unlike ``runSummary``.
    public var hitchCount: Int { hitches }

    /// Whether an interval between glass times is a visible hitch: longer
    /// than one and a half of the `planned` interval, so a refresh (or more)
    /// was missed. The one rule for counting hitches and colouring them.
    public static func isHitch(interval: Nanoseconds, planned: Nanoseconds) -> Bool {
        interval * 2 > planned * 3
    }

    /// The hitch ratio so far, ms/s (see ``RunSummary/hitchRatio``); cheap
    /// enough for a per-frame overlay, unlike ``runSummary``.
    public var hitchRatio: Double {
        let lateTime = hitchTime + (startUp?.hitchTime ?? 0)
        return coveredTime > 0 ? Double(lateTime) / 1e6 / (Double(coveredTime) / 1e9) : 0
    }

    /// The whole run so far.
    ///
    /// Its achieved rate is per second of the time frames were being shown:
    /// the sum of present-to-present intervals, which leaves out time spent
    /// paused (hidden or minimized). The hitch ratio is the late frames'
    /// lateness over the time all frames cover, the first frame of each
    /// segment included (from its `timestamp`), so it is at most 1000 ms/s.
    public var runSummary: RunSummary {
        let seconds = Double(intervalSum) / 1e9
        return RunSummary(frames: frames,
                          achievedFPS: intervalSum > 0 ? Double(intervalCount) / seconds : nil,
                          p50Interval: histogram.percentile(0.5), p99Interval: histogram.percentile(0.99),
                          lateFrames: lateCount,
                          hitchRatio: hitchRatio,
                          p50Latency: latencyHistogram.percentile(0.5), glassSources: sources,
                          cpuPerFrame: cpuPerFrame)
    }
}
