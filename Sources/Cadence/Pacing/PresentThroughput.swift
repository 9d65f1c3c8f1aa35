/// The fastest rate the present path really sustains, learned from presents
/// that could not keep up with the link.
///
/// Some present paths finish a present no sooner than a fixed time after the
/// previous one, whatever the display's clock: under Xvfb Mesa's software
/// swap returns about 16 ms after the last, so presents reach 62.5 a second
/// while X Present's fake clock ticks at 144 Hz. Asked for every vblank, such
/// a path shows frames two and three vblanks apart, nearly every one late:
/// a healthy but slower path reported as hitches for ever. The present's own
/// blocking is part of what a frame costs, as in the adaptive rate: once a
/// window of frames shows the presents setting the pace, the link runs no
/// faster than the rate they reached, at the highest even rate at or below it
/// (144 Hz: 48, every third vblank), where every frame is on time.
///
/// The last ``windowLength`` consecutive paced frames teach it when at
/// least ``boundShare`` of them were *present-bound* (their work ended and
/// their present went out by the target, yet they reached the glass late: the
/// present made them late) and the presents returned, on average, more than
/// ``margin`` further apart than the link planned (a slower rate would help;
/// frames late by a phase error or a busy machine return on the planned
/// interval, and a slower rate would not). What it learns is kept while the
/// display stays the same (at the slower rate presents no longer block, so
/// nothing shows whether the path got faster): another display
/// (``follow(_:)``) or another rate limit (``reset()``) starts afresh.
public struct PresentThroughput: Sendable {
    /// How many consecutive frames one judgement covers.
    public static let windowLength = 16
    /// The share of a window's frames that must be present-bound.
    public static let boundShare = 0.5
    /// How much longer than planned the presents' average interval must be.
    public static let margin = 0.02

    /// The fastest rate the presents reached, once learned; nil while they keep up.
    public private(set) var sustainableRate: FrameRate?
    /// The last frames: when each present returned, the link's
    /// planned interval for it, and whether the present made it late.
    private var window: [(returned: Nanoseconds, planned: Nanoseconds, bound: Bool)] = []
    private var lastFrame: Int?
    /// The display it learned on: its refresh mode and nominal rate.
    private var display: (mode: RefreshMode, nominal: FrameRate?)?

    /// Nothing learned yet.
    public init() {}

    /// Takes one presented frame's record, with its final glass time, in frame order.
    public mutating func observe(_ record: FrameRecord) {
        let consecutive = lastFrame.map { record.frame == $0 + 1 } ?? true
        lastFrame = record.frame
        guard record.isPaced, record.effectiveHz > 0, record.glassSource != .inferred else {
            window.removeAll()
            return
        }
        if !consecutive { window.removeAll() }
        let bound = record.workEnd <= record.presentSubmit && record.presentSubmit <= record.targetTimestamp
            && record.isLate()
        window.append((record.presentTime, FrameRate(hz: record.effectiveHz).period, bound))
        if window.count > Self.windowLength { window.removeFirst() }
        guard window.count == Self.windowLength else { return }
        let boundCount = window.filter(\.bound).count
        guard Double(boundCount) >= Self.boundShare * Double(Self.windowLength) else { return }
        let reached = (window[window.count - 1].returned - window[0].returned) / Nanoseconds(window.count - 1)
        let planned = window.map(\.planned).reduce(0, +) / Nanoseconds(window.count)
        guard Double(reached) > Double(planned) * (1 + Self.margin) else { return }
        let rate = FrameRate(period: reached)
        sustainableRate = sustainableRate.map { min($0, rate) } ?? rate
        window.removeAll()
    }

    /// Forgets what was learned: the present path may have changed.
    public mutating func reset() {
        sustainableRate = nil
        window.removeAll()
        lastFrame = nil
    }

    /// Takes the display each frame is planned on, and forgets what was
    /// learned when it is another one (another refresh mode or nominal rate:
    /// the window moved, or vsync changed).
    public mutating func follow(_ timing: DisplayTiming) {
        let nominal: FrameRate? = switch timing {
        case .fixed(let grid): grid.nominalRate
        case .variable(_, let maximum): maximum
        case .unsynced(let reported): reported
        }
        if let display, display.mode != timing.refreshMode || !Self.same(display.nominal, nominal) { reset() }
        display = (timing.refreshMode, nominal)
    }

    /// Whether two nominal rates are the same display's (``FrameRate/isRefit(of:)``).
    private static func same(_ a: FrameRate?, _ b: FrameRate?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.isRefit(of: b)
    }
}
