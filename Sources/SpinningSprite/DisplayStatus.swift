/// What the overlay says about the display, refreshed when the display changes.
struct DisplayStatus {
    /// e.g. `"fixed 60 Hz"` or `"VRR 48–144 Hz, inactive: windowed"`.
    var summary: String
    /// e.g. `"on"`, or `"on requested; presents do not wait for vblank (timer pacing)"`.
    var vsync: String
    /// The rates the display can show at, for the slider's tick marks.
    var achievableRates: [Double]
}

/// Something the player did (or the system did) that changes the display setup.
enum DisplayChange {
    case toggleFullscreen
    case cycleVSync
    case displayMoved
}
