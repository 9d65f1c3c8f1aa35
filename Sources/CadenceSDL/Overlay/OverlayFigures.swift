@_spi(Programs) import Cadence

/// What the statistics overlay reports, kept as frames reach the glass: the
/// run's statistics (achieved FPS over the last second), the statistics since
/// the planned rate last changed (so late frames and the hitch ratio are
/// never a mix of two rates, nor of the link's first frames while it learned
/// the display's rate), and the graph's recent bars, each with its own target.
struct OverlayFigures {
    private(set) var run = FrameStatistics(recentCapacity: 600)
    private(set) var window = FrameStatistics(recentCapacity: 600)
    /// The rate the window's frames were planned at; nil with nothing pacing.
    private(set) var windowRate: FrameRate?
    /// The rate the latest frame was planned at; nil with nothing pacing.
    private(set) var plannedRate: FrameRate?
    private var windowStart: Nanoseconds?
    /// The latest frame's glass time; nil after a pause.
    private(set) var lastGlass: Nanoseconds?
    /// Variable refresh's states at the latest frame; nil where the backend does not judge them.
    private(set) var variableRefresh: VRRState?
    /// The graph's bars, oldest first.
    private(set) var samples: [FrameTimeGraph.Sample] = []
    /// Bars kept: more than the widest graph shows.
    static let sampleCapacity = 400

    /// How long the window has run, in seconds.
    var windowSeconds: Double {
        guard let windowStart else { return 0 }
        return TimeUnit.seconds((lastGlass ?? windowStart) - windowStart)
    }

    mutating func record(_ record: FrameRecord) {
        run.record(record)
        // A measured rate re-estimated (59.96 Hz, then 60.00) is the same rate: within half a percent.
        if windowStart == nil || !Self.sameRate(record.rate, windowRate) {
            window = FrameStatistics(recentCapacity: 600)
            windowRate = record.rate
            windowStart = record.glassTime
        }
        window.record(record)
        plannedRate = record.rate
        variableRefresh = record.variableRefresh
        if let last = lastGlass {
            // A frame nothing paced (uncapped) has no planned interval: its bar is its own.
            let interval = record.glassTime - last
            if samples.count == Self.sampleCapacity { samples.removeFirst() }
            samples.append(.init(interval: interval,
                                 target: record.rate?.period ?? interval))
        }
        lastGlass = record.glassTime
    }

    /// Whether two planned rates are one: both none, or within half a percent.
    private static func sameRate(_ a: FrameRate?, _ b: FrameRate?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a.hz - b.hz) <= b.hz * 0.005
    }

    /// The next frame follows a pause: its interval is not a frame interval.
    mutating func resetInterval() {
        run.resetInterval()
        window.resetInterval()
        lastGlass = nil
    }

    /// The kind of glass time most of the window's frames carry, in words.
    var glassWords: String {
        switch window.glassSources.max(by: { $0.value < $1.value })?.key {
        case .feedback?, .vblank?: "measured"
        case .estimated?: "estimated"
        case .inferred?: "none: late = submitted late"
        case nil: "–"
        }
    }
}
