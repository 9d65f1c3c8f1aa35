/// The fastest rate the present path really sustains, learned from presents
/// that could not keep up with the link, and unlearned when they can again.
///
/// Some present paths finish a present no sooner than a fixed time after the
/// previous one, whatever the display's clock: under Xvfb Mesa's software
/// swap returns about 16 ms after the last, so presents reach 62.5 a second
/// while X Present's fake clock ticks at 144 Hz. Asked for every vblank, such
/// a path shows frames two and three vblanks apart, nearly every one late.
/// Once a window of frames shows the presents setting the pace, the link runs
/// no faster than the rate they reached, at the highest even rate at or below
/// it (144 Hz: 48, every third vblank), where every frame is on time.
///
/// **Learning.** The last ``windowLength`` consecutive paced frames teach it
/// when the presents set their pace: at least ``boundShare`` of them were
/// *present-bound* (their work ended and their present went out by the
/// target, yet they reached the glass late), those were at least half of the
/// late ones, and the presents returned more than ``margin`` further apart
/// than the link planned, both on average and at the median. Frames late by a
/// phase error return on the planned interval, and a slower rate would not
/// help them; frames late by their own work are the work's ceiling's to
/// learn; one stall of the display server lengthens one interval, not the
/// median. A path that queues presents shows a share, not all: on Xvfb under
/// load at 72 a second, presents returned 15.9 ms apart against 13.9 planned,
/// and every third frame missed its vblank as the queue filled and emptied
/// (a share of half kept that unlearned for 60 frames). A frame whose glass
/// time is inferred (its platform's report lost or too late, as on a busy X
/// server) stays in the window for its present's return, which is real, but
/// is judged neither way: the shares are of the frames whose glass is known,
/// at least half the window. Starting the window again there, or counting
/// such frames as keeping up, kept a slow path unlearned for as long as they
/// came (Xvfb under load: 98 frames planned above what the presents reached).
///
/// **Unlearning.** A busy machine or a display server starved of CPU for a
/// few seconds teaches the same lesson as a slow path, and at the slower rate
/// presents no longer block, so nothing shows that the path got faster. So a
/// learned rate is tried again: ``firstProbeWait`` after it was learned,
/// ``probeFrames`` frames are planned at the asked rate. If one's final
/// record is present-bound, or two in a row returned later after the present
/// before than that rate allows, the path is still slow: the try ends there,
/// the learned rate stays and the next try follows twice the last wait later,
/// at most ``longestProbeWait``. Otherwise the rate is forgotten and the link
/// runs as asked; learned again within two windows, the try failed after
/// all, and the wait doubles as for one that failed at once (a path that
/// queues presents can carry a try: on Xvfb under load Mesa's swaps in flight
/// absorbed four frames at 72 a second, and the window learned 48 again 16
/// frames later, every second). So a short spell of load (a second in every
/// three) is unlearned within about a second of its end, and a path that really is
/// slow costs a try every 2 s: where the platform's glass times are final at
/// once (X Present) a try ends at its first late frame, one frame in
/// `longestProbeWait × rate` (1% at 48 FPS). After a long load a game is back
/// at its asked rate within about ``longestProbeWait`` of its end, as a plain
/// vsync loop is at once. Swappy doubles its wait without bound, cheaper
/// still on a slow path but slower to recover after a long load.
///
/// Another display (``follow(_:)``) or another rate limit (``reset()``)
/// starts afresh.
package struct PresentThroughput: Sendable {
    /// How many consecutive frames one judgement covers.
    package static let windowLength = 16
    /// The share of a window's judged frames that must be present-bound.
    package static let boundShare = 0.25
    /// How much longer than planned the presents' average and median intervals must be.
    package static let margin = 0.02
    /// How long a newly learned rate holds before the first try of the asked rate.
    package static let firstProbeWait: Nanoseconds = 500_000_000
    /// The longest wait between tries: each failed try doubles the wait up to it.
    package static let longestProbeWait: Nanoseconds = 2_000_000_000
    /// How many frames one try plans at the asked rate: the slack the slower
    /// rate left carries the first presents (two, on Xvfb from 48 to 72 a
    /// second) before a path that cannot keep up shows it.
    package static let probeFrames = 4
    /// How much later than the asked rate's interval a try's present may
    /// return after the previous one and still count as keeping up: wider
    /// than ``margin``, as one interval is judged rather than a window's average.
    package static let probeMargin = 0.1

    /// The fastest rate the presents reached, once learned; nil while they keep up.
    package private(set) var sustainableRate: FrameRate?
    /// The last frames: when each present returned, the link's planned
    /// interval for it, and, where its glass time is known, whether it was
    /// late and whether its present made it so.
    private var window: [(returned: Nanoseconds, planned: Nanoseconds, judged: (late: Bool, bound: Bool)?)] = []
    /// The previous record's frame index and present return.
    private var previous: (frame: Int, returned: Nanoseconds)?
    /// When the learned rate is next tried (on the loop's clock).
    private var nextProbe: Nanoseconds?
    /// The wait before the next try, doubled by each failed one.
    private var probeWait = Self.firstProbeWait
    /// A try under way: its frames were planned from `start` on; how many
    /// were planned at the asked rate, how many came back keeping up, and
    /// whether the last of those came back later than the asked rate allows.
    private var probe: (start: Nanoseconds, planned: Int, passed: Int, lagged: Bool)?
    /// The display it learned on: its refresh mode and nominal rate.
    private var display: (mode: RefreshMode, nominal: FrameRate?)?
    /// Whether the frame planned last tries the asked rate.
    private var isTrying = false
    /// Frames observed since a try last passed (nil before one, or after ``reset()``).
    private var framesSinceTry: Int?

    /// Nothing learned yet.
    package init() {}

    /// Plans the frame planned now: a try of the asked rate starts when one
    /// is due, and its first ``probeFrames`` frames go without the ceiling.
    package mutating func plan(at now: Nanoseconds) {
        isTrying = false
        guard sustainableRate != nil else { return }
        if probe == nil, let nextProbe, now >= nextProbe { probe = (now, 0, 0, false) }
        if let p = probe, p.planned < Self.probeFrames {
            probe = (p.start, p.planned + 1, p.passed, p.lagged)
            isTrying = true
        }
    }

    /// The ceiling for the frame planned last: the learned rate, except for
    /// the frames that try the asked rate again (nil).
    package var ceiling: RateCeiling? {
        guard let sustainableRate, !isTrying else { return nil }
        return RateCeiling(rate: sustainableRate, reason: .presents(reached: sustainableRate))
    }

    /// Takes one presented frame's record, with its final glass time, in frame order.
    package mutating func observe(_ record: FrameRecord) {
        let last = previous.flatMap { $0.frame + 1 == record.frame ? $0.returned : nil }
        previous = (record.frame, record.presentTime)
        framesSinceTry = framesSinceTry.map { $0 + 1 }
        let judged = record.rate != nil && record.glassSource != .inferred
        let bound = judged && record.workEnd <= record.presentSubmit
            && record.presentSubmit <= record.slotTimestamp && record.isLate()
        if let probe, record.callbackStart >= probe.start, probe.passed < probe.planned {
            judgeProbe(record, bound: bound, judged: judged, previousReturn: last)
        }
        guard let planned = record.rate else {
            window.removeAll()
            return
        }
        if last == nil { window.removeAll() }
        window.append((record.presentTime, planned.period, judged ? (record.isLate(), bound) : nil))
        if window.count > Self.windowLength { window.removeFirst() }
        guard window.count == Self.windowLength, let reached = periodThePresentsSet else { return }
        let rate = FrameRate(period: reached)
        if sustainableRate == nil {
            let triedTooSoon = framesSinceTry.map { $0 <= 2 * Self.windowLength } ?? false
            probeWait = triedTooSoon ? min(2 * probeWait, Self.longestProbeWait) : Self.firstProbeWait
            nextProbe = record.presentTime + probeWait
        }
        sustainableRate = sustainableRate.map { min($0, rate) } ?? rate
        window.removeAll()
    }

    /// The presents' mean interval over the full window where it shows them
    /// setting the pace (the rule under **Learning** above); nil otherwise.
    private var periodThePresentsSet: Nanoseconds? {
        let judged = window.compactMap(\.judged)
        let bound = judged.filter(\.bound).count
        guard 2 * judged.count >= Self.windowLength, bound > 0,
              Double(bound) >= Self.boundShare * Double(judged.count),
              2 * bound >= judged.filter(\.late).count else { return nil }
        let planned = Double(window.map(\.planned).reduce(0, +)) / Double(window.count)
        let intervals = zip(window, window.dropFirst()).map { $1.returned - $0.returned }.sorted()
        let span = window[window.count - 1].returned - window[0].returned, gaps = window.count - 1
        let mean = Double(span) / Double(gaps), median = Double(intervals[intervals.count / 2])
        return min(mean, median) > planned * (1 + Self.margin) ? span / Nanoseconds(gaps) : nil
    }

    /// One of the try's frames came back. The path is still slow where the
    /// frame was present-bound, or where its present, like the try's one
    /// before it, returned more than ``probeMargin`` later after the previous
    /// one than the asked rate's interval (the slack the slower rate left can
    /// carry a frame or two to the glass on time even so): the try ends, the
    /// learned rate stays and the next try is twice the last wait away, at
    /// most ``longestProbeWait``. A slow path lags on every present once the
    /// slack is spent; a busy display server lags once, when presents go from
    /// finding the last one done to waiting for it (Mesa waits for the
    /// previous swap's completion, which a server short of CPU sends up to
    /// 10 ms after the vblank): Xvfb under load returned a try's second
    /// present 2 to 6 ms late, on the glass on time, and one lag ending the
    /// try held a burst's rate through the quiet after it. Once
    /// ``probeFrames`` frames kept up, the learned rate goes.
    private mutating func judgeProbe(_ record: FrameRecord, bound: Bool, judged: Bool, previousReturn: Nanoseconds?) {
        guard let p = probe else { return }
        var outpaced = false
        if let previousReturn, let asked = record.rate {
            outpaced = Double(record.presentTime - previousReturn) > Double(asked.period) * (1 + Self.probeMargin)
        }
        guard judged, !bound, !(outpaced && p.lagged) else {
            probe = nil
            probeWait = min(2 * probeWait, Self.longestProbeWait)
            nextProbe = record.presentTime + probeWait
            return
        }
        probe = (p.start, p.planned, p.passed + 1, outpaced)
        if p.passed + 1 == Self.probeFrames {
            forgetRate()
            framesSinceTry = 0
        }
    }

    private mutating func forgetRate() {
        sustainableRate = nil
        nextProbe = nil
        probe = nil
        isTrying = false
        window.removeAll()
    }

    /// Forgets what was learned: the present path may have changed.
    package mutating func reset() {
        forgetRate()
        previous = nil
        framesSinceTry = nil
    }

    /// Takes the display each frame is planned on, and forgets what was
    /// learned when it is another one (another refresh mode or nominal rate:
    /// the window moved, or vsync changed).
    package mutating func follow(_ timing: DisplayTiming) {
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
