/// Adaptive frame rate: the highest rate the game can sustain evenly.
///
/// The game reports each frame's measured cost (``FrameRecord/cost(on:)``:
/// its work plus its present's own cost) and, before each frame, asks for the
/// rate to run at, chosen from the display's `RateChoices`: divisors of the
/// refresh rate on a fixed display, any rate in range with variable refresh.
///
/// It is driven by cost, not by late frames: in real time a frame is late
/// mostly because of the machine (a wake-up, the compositor), and a controller
/// that drops on lateness ratchets down to a rate the game never needed. It is
/// deliberately asymmetric, so that it reacts fast to trouble without
/// oscillating:
/// - **down in one step**: when ``Tuning/overrunsToDrop`` of the last
///   ``Tuning/dropLookback`` frames cost more than the current interval, it
///   drops at once to the highest rate that holds the largest recent cost
///   with ``Tuning/keepMargin``, so that a cost that varies fits every frame,
///   not just its median (a frame that overruns is held a whole interval). One
///   long frame (a hitch) alone causes no drop; if it deepens one, the climb,
///   which ignores it, undoes that within about a second. A drop lands where
///   the cost fits, not one rung lower at a time.
/// - **up carefully**: it climbs when the recent cost, ignoring the single
///   largest frame (one hitch must not hold the rate down), fits a faster rate
///   with the wider ``Tuning/climbMargin`` for ``Tuning/climbAfter`` without
///   interruption, and then straight to that rate. So after a single hitch
///   that did cause a drop, the rate is back within about a second.
///
/// Why it cannot oscillate on steady cost: after a drop, the interval holds
/// the recent cost plus 15%, so no frame overruns unless the cost itself grows
/// past that; a climb needs a faster rate to hold the same cost plus 30%,
/// which then also holds it with the 15% a drop looks for.
package struct AdaptiveRateController: Sendable {
    /// The controller's constants.
    package struct Tuning: Equatable, Sendable {
        /// How many recent frame costs a climb looks at.
        package var window: Int
        /// Headroom kept when dropping to a rate.
        package var keepMargin: Double
        /// Headroom a faster rate must have before the controller climbs to it.
        package var climbMargin: Double
        /// How long a faster rate must keep fitting before the controller climbs.
        package var climbAfter: Nanoseconds
        /// How many of the latest frames a drop looks at.
        package var dropLookback: Int
        /// Frames among those whose cost overran the interval, for a drop.
        package var overrunsToDrop: Int

        /// The tuning; the README's "Adaptive rate" states the defaults, and a test holds it to them.
        package init(window: Int = 16, keepMargin: Double = 0.15, climbMargin: Double = 0.30,
                    climbAfter: Nanoseconds = 500_000_000, dropLookback: Int = 3, overrunsToDrop: Int = 2) {
            precondition(window >= 2 && keepMargin >= 0 && climbMargin >= keepMargin,
                         "an adaptive tuning needs a window and a climb margin at least the keep margin")
            precondition(overrunsToDrop > 0 && dropLookback >= overrunsToDrop && dropLookback <= window,
                         "a drop needs overruns among the latest frames of the window")
            self.window = window
            self.keepMargin = keepMargin
            self.climbMargin = climbMargin
            self.climbAfter = climbAfter
            self.dropLookback = dropLookback
            self.overrunsToDrop = overrunsToDrop
        }
    }

    /// The controller's constants.
    package let tuning: Tuning

    /// Recent costs, at most `tuning.window`.
    private var costs: RingBuffer<Nanoseconds>
    private var latestTime: Nanoseconds = 0
    private var current: FrameRate?
    private var headroomSince: Nanoseconds?

    /// A controller with `tuning`.
    package init(tuning: Tuning = Tuning()) {
        self.tuning = tuning
        costs = RingBuffer(capacity: tuning.window)
    }

    /// Adds one frame: its measured `cost` (``FrameRecord/cost(on:)``) and
    /// when it was measured (`time`, on the loop's clock).
    package mutating func record(cost: Nanoseconds, at time: Nanoseconds) {
        costs.append(max(0, cost))
        latestTime = time
    }

    /// The rate to ask the display link for now, in Hz, chosen from `choices`.
    package mutating func rate(for choices: RateChoices) -> Double {
        let chosen = decide(choices)
        current = chosen
        return chosen.hz
    }

    /// The rate chosen now as a ceiling for the link: nil where it is the
    /// display's highest, else the chosen rate held by the game's work.
    package mutating func ceiling(for choices: RateChoices) -> RateCeiling? {
        let chosen = FrameRate(hz: rate(for: choices))
        guard chosen < choices.highest else { return nil }
        return RateCeiling(rate: chosen, reason: .work(cost: recentCost ?? 0))
    }

    /// What recent frames cost, as a climb judges it: the largest of the
    /// window but one (a single hitch is ignored); nil before any frame.
    package var recentCost: Nanoseconds? {
        let sorted = costs.elements.sorted()
        return sorted.isEmpty ? nil : sorted[max(0, sorted.count - 2)]
    }

    private mutating func decide(_ choices: RateChoices) -> FrameRate {
        guard let previous = current, costs.count > 0 else { return choices.highest }
        let costs = costs.elements
        let current = choices.nearest(to: previous)

        let sorted = costs.sorted()
        let largestButOne = sorted[max(0, sorted.count - 2)]
        if costs.suffix(tuning.dropLookback).filter({ $0 > current.period }).count >= tuning.overrunsToDrop {
            let lower = choices.highest(withIntervalAtLeast: scaled(sorted[sorted.count - 1], tuning.keepMargin))
            if lower < current {
                headroomSince = nil
                return lower
            }
        }

        let faster = choices.highest(withIntervalAtLeast: scaled(largestButOne, tuning.climbMargin))
        guard faster > current else {
            headroomSince = nil
            return current
        }
        let since = headroomSince ?? latestTime
        headroomSince = since
        guard latestTime - since >= tuning.climbAfter else { return current }
        headroomSince = nil
        return faster
    }

    private func scaled(_ span: Nanoseconds, _ margin: Double) -> Nanoseconds {
        Nanoseconds((Double(span) * (1 + margin)).rounded(.up))
    }
}
