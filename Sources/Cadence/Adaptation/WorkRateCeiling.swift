/// The fastest rate the game's own work sustains, at or below the rate it asked for.
///
/// A frame whose work runs past its target is held to the next slot of the
/// link's cadence. That keeps one late frame on the line of motion, but when
/// the work outgrows the interval for good, every frame is late: shown an
/// interval after the target the game animated to, and on a variable-refresh
/// panel not even that steadily, since the held slot can fall while the
/// driver repeats the previous frame (15 ms of work under a cap of 78 on a
/// 48–144 Hz panel reached the glass 18.7, 23.5 and 27.8 ms apart, 0 to 15 ms
/// after its targets). So when the work no longer fits, the link runs at the
/// next even rate the work can meet (on a fixed display a whole number of
/// vblanks, with variable refresh or none any rate), where each frame is done
/// by its target and reaches the glass on it, at one speed.
///
/// It decides as the adaptive rate does (`AdaptiveRateController`), with a
/// narrower margin for the drop (``tuning``): down in one step once two of the
/// last three frames' work overran the interval, to the highest rate holding
/// the largest recent work with 5% to spare (the rate the work can meet, with
/// room for a late wake-up and a little drift, where the adaptive rate keeps
/// 15%: a request is the rate the game wants, so it gives up no more than it
/// must); back up, never above the request, once a faster rate has held the
/// work with 30% to spare for half a second. It learns from the work alone
/// (``FrameRecord/work``, not the whole ``FrameRecord/cost(on:)``): what the present path sustains is
/// `PresentThroughput`'s to learn, and the link takes the lower of the two.
/// Another rate asked for, or another display, starts afresh.
package struct WorkRateCeiling: Sendable {
    /// The adaptive rate's tuning, keeping 5% rather than 15% when it drops.
    package static let tuning = AdaptiveRateController.Tuning(keepMargin: 0.05)

    /// The ceiling last handed out; nil while the work fits the request.
    package private(set) var rate: FrameRate?

    private var controller = AdaptiveRateController(tuning: tuning)
    /// The rate the choices were bounded by, the display (its refresh mode and
    /// rate), and whether the work held the link below that rate.
    private var bound: (rate: FrameRate, mode: RefreshMode, display: FrameRate, limiting: Bool)?

    /// Nothing learned yet.
    package init() {}

    /// Takes one presented frame's record.
    package mutating func observe(_ record: FrameRecord) {
        controller.record(cost: record.work, at: record.presentTime)
    }

    /// The ceiling for the next frame, whose link runs at `requested` on
    /// `timing` by the game's request, with the work it rests on: nil while
    /// the work fits `requested`.
    package mutating func ceiling(under requested: FrameRate, on timing: DisplayTiming) -> RateCeiling? {
        // Unless the work holds the link down, the request in effect is the start. While it does, a refitted
        // estimate of the same display and request (``FrameRate/isRefit(of:)``) keeps what was learned; on
        // another display the rates the work can meet are others, learned afresh in two frames.
        if let bound, bound.mode != timing.refreshMode || !requested.isRefit(of: bound.rate)
            || !timing.nativeRate.isRefit(of: bound.display) || (!bound.limiting && requested != bound.rate) {
            reset()
        }
        let choices: RateChoices = switch RateChoices(timing) {
        case .discrete(let rates): .discrete([requested] + rates.filter { $0 < requested })
        case .continuous: .continuous(maximum: requested)
        }
        let chosen = choices.nearest(to: FrameRate(hz: controller.rate(for: choices)))
        bound = (requested, timing.refreshMode, timing.nativeRate, chosen < requested)
        rate = chosen < requested ? chosen : nil
        return rate.map { RateCeiling(rate: $0, reason: .work(cost: controller.recentCost ?? 0)) }
    }

    /// Forgets what was learned: another rate was asked for.
    package mutating func reset() {
        controller = AdaptiveRateController(tuning: Self.tuning)
        bound = nil
        rate = nil
    }
}
