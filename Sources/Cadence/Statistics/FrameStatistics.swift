/// Running statistics over the frames of a run, in bounded memory.
///
/// The overlay wants the last few seconds (the frame-time graph, recent
/// percentiles); the exit summary wants the whole run. Recent intervals live in
/// a ring buffer and whole-run percentiles in an ``IntervalHistogram``, so a
/// game left running for hours uses the same memory as one run for a second.
public struct FrameStatistics: Sendable {
    /// How many recent intervals are kept for the graph and recent percentiles.
    public let recentCapacity: Int

    private var recent: [Nanoseconds?]
    private var nextSlot = 0
    private var recentCount = 0
    private var recentLatency: [Nanoseconds]
    private var histogram = IntervalHistogram()
    private var latencyHistogram = IntervalHistogram()
    private var lastPresent: Nanoseconds?
    private var frames = 0
    private var late = 0
    private var hitches = 0

    /// Statistics keeping the last `recentCapacity` intervals (600 = 10 s at 60 Hz).
    public init(recentCapacity: Int = 600) {
        precondition(recentCapacity > 0, "keep at least one interval")
        self.recentCapacity = recentCapacity
        recent = Array(repeating: nil, count: recentCapacity)
        recentLatency = Array(repeating: 0, count: recentCapacity)
    }

    /// Adds one presented frame.
    ///
    /// Its interval is measured from the previous record's present time. A
    /// record after a pause (its `delta` is the link's first-frame interval but
    /// real time moved on) is told apart by `skippedFrames == 0` and a gap: the
    /// caller marks a new segment with ``resetInterval()``.
    public mutating func record(_ record: FrameRecord) {
        frames += 1
        if record.isLate() { late += 1 }
        var interval: Nanoseconds?
        if let last = lastPresent {
            let span = record.presentTime - last
            interval = span
            histogram.record(span)
            let expected = record.effectiveHz > 0 ? Nanoseconds(1e9 / record.effectiveHz) : span
            if span * 2 > expected * 3 { hitches += 1 }
        }
        lastPresent = record.presentTime
        latencyHistogram.record(record.inputToGlass)
        recent[nextSlot] = interval
        recentLatency[nextSlot] = record.inputToGlass
        nextSlot = (nextSlot + 1) % recentCapacity
        recentCount = min(recentCount + 1, recentCapacity)
    }

    /// Starts a new segment: the next frame has no interval (after a pause,
    /// where the time spent paused is not a frame interval).
    public mutating func resetInterval() {
        lastPresent = nil
    }

    /// Recent present-to-present intervals, oldest first; nil where a frame
    /// had no predecessor.
    public var recentPresentIntervals: [Nanoseconds?] {
        let start = (nextSlot - recentCount + recentCapacity) % recentCapacity
        return (0..<recentCount).map { recent[(start + $0) % recentCapacity] }
    }

    /// The recent intervals at each quantile of `qs` (0…1), sorted once for
    /// all of them; nil entries when there are no intervals yet.
    public func intervalPercentiles(_ qs: [Double]) -> [Nanoseconds?] {
        let values = recentPresentIntervals.compactMap { $0 }.sorted()
        return qs.map { values.nearestRank($0) }
    }

    /// The recent frames' input-to-glass latency at quantile `q` (0…1), for
    /// the overlay; nil before the first frame.
    public func recentLatencyPercentile(_ q: Double) -> Nanoseconds? {
        let start = (nextSlot - recentCount + recentCapacity) % recentCapacity
        return (0..<recentCount).map { recentLatency[(start + $0) % recentCapacity] }.sorted().nearestRank(q)
    }

    /// Intervals so far more than 1.5× the link's interval: visible hitches.
    /// Cheap enough for a per-frame overlay, unlike ``runSummary``.
    public var hitchCount: Int { hitches }

    /// The whole run so far.
    public var runSummary: RunSummary {
        RunSummary(frames: frames, p50Interval: histogram.percentile(0.5), p99Interval: histogram.percentile(0.99),
                   lateFrames: late, hitches: hitches, p50Latency: latencyHistogram.percentile(0.5))
    }
}
