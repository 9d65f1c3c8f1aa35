@_spi(Programs) import Cadence

/// What the sample's own overlay lines need, kept as frames reach the glass:
/// how long the rate in effect has held, and what presents cost beyond
/// waiting, to say in words when they are what holds the frame rate down.
/// (The figures themselves are the library's ``StatisticsOverlay``.)
struct RunMonitor {
    /// The rate in effect since ``windowSeconds`` began, in Hz; 0 uncapped.
    private var windowHz = 0.0
    private var windowStart: Nanoseconds?
    private var lastPresent: Nanoseconds?
    /// A running average of what a present costs beyond waiting, in ns.
    private(set) var presentCost = 0.0

    /// How long the rate in effect has held, in seconds.
    var windowSeconds: Double {
        guard let windowStart else { return 0 }
        return TimeUnit.seconds((lastPresent ?? windowStart) - windowStart)
    }

    /// Adds a presented frame whose whole cost (``FrameRecord/cost(on:)``) was `cost`.
    mutating func record(_ record: FrameRecord, cost: Nanoseconds) {
        if windowStart == nil || (record.rate?.hz ?? 0) != windowHz {
            windowHz = record.rate?.hz ?? 0
            windowStart = record.glassTime
        }
        lastPresent = record.glassTime
        presentCost += (Double(cost - (record.workEnd - record.callbackStart)) - presentCost) / 10
    }

    /// The next frame follows a pause: its interval is not a frame interval.
    mutating func resetInterval() {
        lastPresent = nil
    }
}
