/// The fastest rate the game's own work sustains, at or below the rate the
/// link runs at by the request: the work's share of the link's one rate
/// ceiling, at every request, adaptive included.
///
/// A frame whose work runs past its target is held to the next slot of the
/// link's cadence. That keeps one late frame on the line of motion, but when
/// the work outgrows the interval for good, every frame is late: shown an
/// interval after the target the game animated to, and on a variable-refresh
/// panel not even that steadily, since the held slot can fall while the
/// driver repeats the previous frame. So when the work no longer fits, the
/// link runs at the next even rate the work can meet (on a fixed display a
/// whole number of vblanks, with variable refresh or none the request itself
/// or any whole rate below it; below ``RateChoices/floor`` only as far as
/// the work needs), where each frame is done by its target and reaches the
/// glass on it, at one speed. The loop measures the work every frame, so the
/// rate follows it both ways:
/// - **down** on the first frame planned at the rate now whose measure
///   overran its interval, in one step to the fastest rate holding the
///   largest measure of the window (the last ``Tuning/window`` frames, none
///   older than ``Tuning/windowSpan``) with ``Tuning/keepMargin``. That
///   frame was late; the next is planned at the slot its measured work
///   allows, so work that grew costs one late frame, and a one-frame hitch
///   one long interval before the rate climbs back (below). At a request,
///   an overrun whose present returned before its slot is no reason: the
///   swap queued it (Mesa's on X11), the next callback starts up to an
///   interval early, and one long frame reaches its target as in a plain
///   vsync loop; work that lasts uses that head start up, making a frame late.
/// - **up** on the first frame the work allows: to the fastest rate that
///   holds the latest frame's measure with ``Tuning/climbMargin``, when the
///   window's frames that rate does not hold are none, or one unbroken run
///   the latest frame ended: the run held level or only fell (a step or a
///   ramp down), or the latest frame lies below it by more than the run's
///   own spread. Work that alternates (heavy, light, heavy) leaves several
///   runs, and a light frame among noisy ones is within their spread: both
///   stay at the rate that holds all of the work, one steady cadence, until
///   the heavy frames have left the window.
///
/// Two tunings: at a request (``Tuning/request``) the measure is the work
/// alone (``FrameRecord/work``: what the present path sustains is
/// `PresentThroughput`'s to learn), held with nothing to spare, the rate a
/// plain vsync loop shows the same work at; adaptive (``Tuning/adaptive``)
/// measures the whole ``FrameRecord/cost(on:)`` and keeps headroom, 15% when
/// it drops and 30% before it climbs, so a cost that varies fits every frame.
/// Another rate asked for, or another display, starts afresh.
package struct WorkRateCeiling: Sendable {
    /// How the ceiling measures frames and decides.
    package struct Tuning: Equatable, Sendable {
        /// What a frame is measured by.
        package enum Measure: Equatable, Sendable {
            /// ``FrameRecord/work``: callback start to work end.
            case work
            /// ``FrameRecord/cost(on:)``: the work plus the present's own cost.
            case cost
        }
        /// What a frame is measured by.
        package var measure: Measure
        /// Headroom kept above the largest recent measure when dropping.
        package var keepMargin: Double
        /// Headroom the latest measure must have at a faster rate to climb.
        package var climbMargin: Double
        /// How many recent frames the window holds at most.
        package var window: Int
        /// How old the window's oldest frame may be, so a slow rate does not
        /// remember seconds of work.
        package var windowSpan: Nanoseconds
        /// Whether a frame that overran its interval but was queued (its present
        /// returned before its slot) keeps the rate: at a request, as in a plain
        /// vsync loop; not when adaptive, whose headroom is kept every frame.
        package var queuedOverrunsKeepRate: Bool

        /// A tuning; the defaults are the ones docs/pacing.md states, and a test holds it to them.
        package init(measure: Measure, keepMargin: Double, climbMargin: Double, queuedOverrunsKeepRate: Bool,
                     window: Int = 16, windowSpan: Nanoseconds = 500_000_000) {
            precondition(window > 0 && keepMargin >= 0 && climbMargin >= keepMargin && windowSpan > 0,
                         "a work ceiling needs a window and a climb margin at least its keep margin")
            self.measure = measure
            self.keepMargin = keepMargin
            self.climbMargin = climbMargin
            self.window = window
            self.windowSpan = windowSpan
            self.queuedOverrunsKeepRate = queuedOverrunsKeepRate
        }

        /// At a request: the work alone, nothing to spare, a queued frame's overrun kept.
        package static let request = Tuning(measure: .work, keepMargin: 0, climbMargin: 0,
                                            queuedOverrunsKeepRate: true)
        /// Adaptive: the whole cost, 15% kept on a drop, 30% needed for a climb, every overrun a drop.
        package static let adaptive = Tuning(measure: .cost, keepMargin: 0.15, climbMargin: 0.30,
                                             queuedOverrunsKeepRate: false)
    }

    /// How it measures and decides.
    package let tuning: Tuning
    /// The ceiling for the frame planned last; nil while the work allows the request.
    package private(set) var rate: FrameRate?
    /// The measure the ceiling rests on (what the frame's reason names).
    private var basis: Nanoseconds = 0
    /// The window: each frame's measure and when its present returned, oldest first.
    private var frames: [(measure: Nanoseconds, at: Nanoseconds)] = []
    /// Whether the latest frame's present returned before its slot (the swap queued it).
    private var latestWasQueued = false
    /// Frames observed since the rate last changed: a drop judges only one planned at it.
    private var sinceChange = 0
    /// The request the rates were bounded by and the display (its refresh mode and rate) they were chosen on.
    private var bound: (requested: FrameRate, mode: RefreshMode, display: FrameRate)?

    /// Nothing learned yet, deciding by `tuning`.
    package init(tuning: Tuning = .request) {
        self.tuning = tuning
    }

    /// The ceiling the link runs under: ``rate``, for the work; nil while the work allows the request.
    package var ceiling: RateCeiling? {
        rate.map { RateCeiling(rate: $0, reason: .work(cost: basis)) }
    }

    /// Takes one presented frame's record, presented on `timing`.
    package mutating func observe(_ record: FrameRecord, on timing: DisplayTiming) {
        let measure = max(0, tuning.measure == .work ? record.work : record.cost(on: timing))
        frames.append((measure, record.presentTime))
        latestWasQueued = record.presentTime < record.slotTimestamp
        let oldest = record.presentTime - tuning.windowSpan
        while frames.count > tuning.window || (frames.count > 1 && frames[0].at < oldest) { frames.removeFirst() }
        sinceChange += 1
    }

    /// Decides the ceiling for the next frame, whose link runs at `requested`
    /// on `timing` by the game's request: down or up as the work says, else
    /// as it was; ``ceiling`` then tells it.
    package mutating func plan(under requested: FrameRate, on timing: DisplayTiming) {
        // A refitted estimate of the same display and request (``FrameRate/isRefit(of:)``) keeps what was learned;
        // on another display or at another request the rates the work can meet are others, learned afresh.
        if let bound, bound.mode != timing.refreshMode || !requested.isRefit(of: bound.requested)
            || !timing.nativeRate.isRefit(of: bound.display) {
            reset()
        }
        bound = (requested, timing.refreshMode, timing.nativeRate)
        let choices: RateChoices = switch RateChoices(timing) {
        case .discrete(let rates): .discrete([requested] + rates.filter { $0 < requested })
        case .continuous: .continuous(maximum: requested)
        }
        // Where a rate chosen earlier stands on this display's choices (a refitted rate moves them a little).
        var next = rate.map { Self.place($0, in: choices, on: timing) } ?? requested
        // Every choice is at most the request: at the request there is nothing to climb to.
        if let latest = frames.last?.measure,
           let (chosen, basis) = lowered(from: next, in: choices, on: timing)
            ?? (next < requested ? raised(from: next, for: latest, in: choices, on: timing) : nil) {
            next = chosen
            self.basis = basis
            sinceChange = 0
        }
        rate = next < requested ? next : nil
    }

    /// Forgets what was learned: another rate was asked for.
    package mutating func reset() {
        rate = nil
        frames.removeAll()
        sinceChange = 0
        bound = nil
    }

    /// The rate to drop to, with the measure it holds: when the latest frame, planned
    /// at `current`, overran its interval (unqueued, where the tuning asks); nil otherwise.
    private func lowered(from current: FrameRate, in choices: RateChoices,
                         on timing: DisplayTiming) -> (FrameRate, Nanoseconds)? {
        guard sinceChange > 0, let latest = frames.last?.measure, latest > current.period,
              !(latestWasQueued && tuning.queuedOverrunsKeepRate), let largest = frames.map(\.measure).max() else { return nil }
        let lower = Self.rate(holding: scaled(largest, tuning.keepMargin), sustained: sustained, in: choices, on: timing)
        return lower < current ? (lower, largest) : nil
    }

    /// The fastest rate above `current` the work allows, with the measure it
    /// holds: it holds the `latest` measure with the climb margin, and the
    /// window's frames it does not hold are one unbroken run or none; nil
    /// when no faster rate does.
    private func raised(from current: FrameRate, for latest: Nanoseconds, in choices: RateChoices,
                        on timing: DisplayTiming) -> (FrameRate, Nanoseconds)? {
        // Whether a rate holds a measure changes only at the rates that just hold one, so those are the candidates.
        let sustained = sustained
        let candidates = Set(frames.map {
            Self.rate(holding: scaled($0.measure, tuning.climbMargin), sustained: sustained, in: choices, on: timing)
        })
            .filter { $0 > current }.sorted(by: >)
        for rate in candidates where scaled(latest, tuning.climbMargin) <= rate.period {
            let fits = frames.map { scaled($0.measure, tuning.climbMargin) <= rate.period }
            let runs = zip([true] + fits, fits).filter { previous, now in previous && !now }.count
            let run = zip(frames, fits).filter { !$0.1 }.map(\.0.measure)
            if runs == 0 || (runs == 1 && Self.shrank(from: run, to: latest)) {
                return (rate, zip(frames, fits).filter(\.1).map(\.0.measure).max() ?? latest)
            }
        }
        return nil
    }

    /// What the latest two frames both measured (the smaller, with the keep
    /// margin): work that lasts, as against one frame's hitch.
    private var sustained: Nanoseconds {
        frames.count < 2 ? 0 : scaled(min(frames[frames.count - 1].measure, frames[frames.count - 2].measure),
                                      tuning.keepMargin)
    }

    /// The fastest rate whose interval is at least `interval`: one of
    /// `choices`, or, for work that outlasts even the slowest of them (the
    /// floor's interval) frame after frame, the next even rate below it on
    /// `timing` that holds what the latest two frames both took, so that such
    /// work too gets one steady cadence with every frame on its target: a
    /// whole number of vblanks on a fixed display, else a whole hertz or one
    /// frame every whole number of seconds; never slower than
    /// ``FrameRateSnapper/slowest``. One long frame (a level loading) stays at
    /// the floor, so the frame after it is not held back as long again.
    private static func rate(holding interval: Nanoseconds, sustained: Nanoseconds, in choices: RateChoices,
                             on timing: DisplayTiming) -> FrameRate {
        let chosen = choices.highest(withIntervalAtLeast: interval)
        let interval = min(interval, sustained)
        guard chosen.period < interval else { return chosen }
        let below: FrameRate = if case .fixed(let grid) = timing {
            grid.rate.divided(by: max(1, grid.rate.frameIndex(atOrAfter: interval)))
        } else if interval <= TimeUnit.nanosecondsPerSecond {
            FrameRate(numerator: TimeUnit.nanosecondsPerSecond / interval)
        } else {
            FrameRate(numerator: 1, denominator: (interval + TimeUnit.nanosecondsPerSecond - 1) / TimeUnit.nanosecondsPerSecond)
        }
        return min(chosen, max(FrameRateSnapper.slowest, below))
    }

    /// Where a rate chosen earlier stands on `choices` now that the display
    /// may have been refitted: the nearest of them, or below their slowest
    /// (see ``rate(holding:sustained:in:on:)``) the nearest whole division of a fixed
    /// display's rate, else the rate itself.
    private static func place(_ rate: FrameRate, in choices: RateChoices, on timing: DisplayTiming) -> FrameRate {
        let nearest = choices.nearest(to: rate)
        guard rate < nearest, rate < RateChoices.floor else { return nearest }
        guard case .fixed(let grid) = timing else { return rate }
        return grid.rate.divided(by: max(1, Int64((grid.rate.hz / rate.hz).rounded())))
    }

    /// Whether `latest` ended the heavier `run` of measures, rather than
    /// being a light frame among noisy ones: the run held level or only fell
    /// (a step or a ramp down), or `latest` lies below it by more than the run's
    /// own spread.
    private static func shrank(from run: [Nanoseconds], to latest: Nanoseconds) -> Bool {
        guard let low = run.min(), let high = run.max() else { return true }
        return zip(run, run.dropFirst()).allSatisfy { $1 <= $0 } || latest < low - (high - low)
    }

    private func scaled(_ span: Nanoseconds, _ margin: Double) -> Nanoseconds {
        margin == 0 ? span : Nanoseconds((Double(span) * (1 + margin)).rounded(.up))
    }
}
