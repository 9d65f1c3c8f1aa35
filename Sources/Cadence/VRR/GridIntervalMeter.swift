/// Whether a window's frames reach the glass off the display's fixed grid:
/// the measured evidence that variable refresh is in effect.
///
/// On a fixed display every frame reaches the glass on a vblank, so every
/// interval between two glass times is a whole number of refresh periods,
/// however late a frame is. With variable refresh the panel refreshes when a
/// frame arrives: a frame paced for a vblank of the fixed grid is shown when
/// presented, before it, and intervals take any length. The meter judges
/// each glass time against the grid where one is known, else each interval
/// against the period; it keeps the last ``window`` judgements and calls the
/// frames off the grid when at least ``offGridToClaim`` of them are more than
/// ``tolerance`` off: a third, so a
/// few stray glass times do not claim it, while a variable-refresh run whose
/// rate is not a divisor of the mode's shows it within a third of a second.
@_spi(Programs) public struct GridIntervalMeter: Sendable {
    /// How many recent intervals are judged.
    public static let window = 30
    /// How many of them must be off the grid to call it variable.
    public static let offGridToClaim = 10
    /// How far from a whole number of periods an interval may be and still be
    /// on the grid: above the jitter of measured glass times (kernel vblank
    /// timestamps, within tens of microseconds), below what variable refresh
    /// moves a frame by at any rate that is not a divisor.
    public static let tolerance: Nanoseconds = 500_000
    /// Intervals longer than this many periods (a pause, a hitch) say nothing:
    /// a small error in the period adds up over them.
    public static let longestJudged = 8

    /// Whether each judged interval was off the grid, oldest first.
    private var judged = RingBuffer<Bool>(capacity: window)

    /// An empty meter.
    public init() {}

    /// How many glass times or intervals are judged now (at most ``window``).
    public var measured: Int { judged.count }
    /// How many of them were off the grid.
    public var offGrid: Int { judged.elements.filter { $0 }.count }
    /// Whether the frames reach the glass off the grid.
    public var isOffGrid: Bool { offGrid >= Self.offGridToClaim }

    /// Judges the interval between two consecutive frames' measured glass
    /// times against the fixed mode's `period`.
    public mutating func add(interval: Nanoseconds, period: Nanoseconds) {
        guard period > 0, interval > 0, interval <= period * Nanoseconds(Self.longestJudged) else { return }
        let periods = max(1, (interval + period / 2) / period)
        judged.append(abs(interval - periods * period) > Self.tolerance)
    }

    /// Judges a measured glass time against the fixed mode's vblank `grid`.
    public mutating func add(glass: Nanoseconds, grid: VsyncGrid) {
        judged.append(abs(glass - grid.time(at: grid.nearestIndex(to: glass))) > Self.tolerance)
    }

    /// Forgets every judgement: the display or its mode changed.
    public mutating func reset() {
        judged = RingBuffer(capacity: Self.window)
    }
}
