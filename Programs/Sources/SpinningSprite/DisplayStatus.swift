@_spi(Programs) import Cadence

/// What the overlay says about the display, refreshed when the display changes.
struct DisplayStatus {
    /// e.g. `"fixed 60 Hz"` or `"VRR 48–144 Hz, inactive: windowed"`.
    var summary: String
    /// The window: `"windowed 1280x720"` or `"fullscreen"`.
    var window: String
    /// e.g. `"on"`, or `"on requested; presents do not wait for vblank (timer pacing)"`.
    var vsync: String
    /// Where the vblank times come from, e.g. `"X Present MSC/UST"`.
    var clock = "simulated display"
    /// The rates the display can show at, for the slider's tick marks.
    var achievableRates: [Double]
    /// Whether the loop's thread runs in the real-time scheduling class (low
    /// latency, where the system allows it); never in simulation.
    var realTimeClass = false
}

/// Something the player did that changes the display setup.
enum DisplayChange {
    case toggleFullscreen
    case cycleVSync
}

extension DisplayTiming {
    /// Rates worth marking on the slider: the rates the display shows evenly,
    /// as the loop chooses among them (``RateChoices``), R/n on a fixed
    /// display; with variable refresh, the range's ends (below its lowest the
    /// driver repeats frames). Without vsync frames tear: nothing is marked.
    var achievableRates: [Double] {
        switch (RateChoices(self), self) {
        case (.discrete(let rates), _): rates.map(\.hz)
        case (.continuous(let maximum), .variable(let minimum, _)): [minimum.hz, maximum.hz]
        case (.continuous, _): []
        }
    }
}
