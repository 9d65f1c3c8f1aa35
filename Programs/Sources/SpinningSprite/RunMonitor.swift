import Cadence

/// What the overlay and the frame-time graph report, kept as frames reach the
/// glass: statistics since the rate in effect last changed (so p50 and p99 are
/// never a mix of two rates), the graph's recent bars each with its own target,
/// and what presents cost beyond waiting, to say in words when they are what
/// holds the frame rate down.
struct RunMonitor {
    /// Statistics since the rate last changed.
    private(set) var window = FrameStatistics(recentCapacity: 600)
    /// The rate those statistics are at, in Hz; 0 uncapped.
    private(set) var windowHz = 0.0
    private var windowStart: Nanoseconds?
    /// The graph's recent bars.
    private(set) var graphSamples: [FrameTimeGraph.Sample] = []
    private var lastPresent: Nanoseconds?
    /// A running average of what a present costs beyond waiting, in ns.
    private(set) var presentCost = 0.0

    /// How long the statistics window has run, in seconds.
    var windowSeconds: Double {
        guard let windowStart else { return 0 }
        return TimeUnit.seconds((lastPresent ?? windowStart) - windowStart)
    }

    /// Adds a presented frame whose whole cost (``FrameRecord/cost(on:)``) was `cost`.
    mutating func record(_ record: FrameRecord, cost: Nanoseconds) {
        if windowStart == nil || record.effectiveHz != windowHz {
            window = FrameStatistics(recentCapacity: 600)
            windowHz = record.effectiveHz
            windowStart = record.glassTime
        }
        window.record(record)
        if let last = lastPresent {
            // An uncapped frame has no target: its bar is its own (never a hitch).
            let interval = record.glassTime - last
            if graphSamples.count == 240 { graphSamples.removeFirst() }
            graphSamples.append(.init(interval: interval,
                                      target: record.effectiveHz > 0 ? Nanoseconds(1e9 / record.effectiveHz) : interval))
        }
        lastPresent = record.glassTime
        presentCost += (Double(cost - (record.workEnd - record.callbackStart)) - presentCost) / 10
    }

    /// The next frame follows a pause: its interval is not a frame interval.
    mutating func resetInterval() {
        window.resetInterval()
        lastPresent = nil
    }
}
