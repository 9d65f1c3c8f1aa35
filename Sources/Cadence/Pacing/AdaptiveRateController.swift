/// Adaptive frame rate: the highest rate the game can sustain evenly.
///
/// The game reports each frame's measured work (from the callback's start to
/// the moment the presenter starts waiting to present) and whether the frame
/// reached the glass late; before each frame it asks for the rate to run at.
/// The controller keeps a rolling window of recent frames and picks from the
/// display's ``RateChoices``: divisors of the refresh rate on a fixed display,
/// any rate in range with variable refresh.
///
/// It is deliberately asymmetric, so that it reacts fast to trouble and never
/// oscillates:
/// - **down fast**: when ``Tuning/lateFramesToDrop`` frames in the window were
///   late, it drops at once to the highest rate that holds the *largest*
///   recent work with ``Tuning/keepMargin``; when the *average* work with that
///   margin no longer fits the current interval, to the rate that holds the
///   average. One late frame alone (a hitch) changes nothing.
/// - **up slowly**: it climbs only when the largest recent work with the wider
///   ``Tuning/climbMargin`` fits a faster rate, with no late frame, for
///   ``Tuning/climbAfter`` without interruption, and then straight to that rate.
///
/// Why it cannot oscillate on steady work: after a climb, the interval holds
/// the largest recent work plus 30%, so the average plus 15% fits it and no
/// frame is late unless the work itself grows by more than 30%; after a drop,
/// a climb needs a faster rate to hold the largest work plus 30%, more than the
/// 15% that was just found missing.
public struct AdaptiveRateController: Sendable {
    /// The controller's constants.
    public struct Tuning: Equatable, Sendable {
        /// How many recent frames the averages look at.
        public var window: Int
        /// Headroom kept when staying at or dropping to a rate.
        public var keepMargin: Double
        /// Headroom a faster rate must have before the controller climbs to it.
        public var climbMargin: Double
        /// How long a faster rate must keep fitting before the controller climbs.
        public var climbAfter: Nanoseconds
        /// Late frames within the window that make the controller drop at once.
        public var lateFramesToDrop: Int

        /// The tuning; the defaults meet the scenarios (see AdaptiveRateTests).
        public init(window: Int = 16, keepMargin: Double = 0.15, climbMargin: Double = 0.30,
                    climbAfter: Nanoseconds = 500_000_000, lateFramesToDrop: Int = 2) {
            precondition(window > 0 && keepMargin >= 0 && climbMargin >= keepMargin && lateFramesToDrop > 0,
                         "an adaptive tuning needs a window and a climb margin at least the keep margin")
            self.window = window
            self.keepMargin = keepMargin
            self.climbMargin = climbMargin
            self.climbAfter = climbAfter
            self.lateFramesToDrop = lateFramesToDrop
        }
    }

    /// The controller's constants.
    public let tuning: Tuning

    private var works: [Nanoseconds] = []
    private var lates: [Bool] = []
    private var oldest = 0
    private var latestTime: Nanoseconds = 0
    private var current: FrameRate?
    private var headroomSince: Nanoseconds?

    /// A controller with `tuning`.
    public init(tuning: Tuning = Tuning()) {
        self.tuning = tuning
    }

    /// Adds one frame: its measured `work`, whether it reached the glass after
    /// its target (`late`), and when it was measured (`time`, on the loop's clock).
    public mutating func record(work: Nanoseconds, late: Bool, at time: Nanoseconds) {
        if works.count < tuning.window {
            works.append(work)
            lates.append(late)
        } else {
            works[oldest] = work
            lates[oldest] = late
            oldest = (oldest + 1) % tuning.window
        }
        latestTime = time
    }

    /// The rate to ask the display link for now, in Hz, chosen from `choices`.
    public mutating func rate(for choices: RateChoices) -> Double {
        let chosen = decide(choices)
        current = chosen
        return chosen.hz
    }

    private mutating func decide(_ choices: RateChoices) -> FrameRate {
        guard let previous = current, !works.isEmpty else { return choices.highest }
        let current = choices.nearest(to: previous)
        let average = works.reduce(0, +) / Nanoseconds(works.count)
        let largest = works.max()!
        let lateCount = lates.filter { $0 }.count
        let missing = lateCount >= tuning.lateFramesToDrop

        if missing || choices.highest(withIntervalAtLeast: scaled(average, tuning.keepMargin)) < current {
            headroomSince = nil
            let lower = choices.highest(withIntervalAtLeast: scaled(missing ? largest : average, tuning.keepMargin))
            guard lower < current else { return current }
            // The late frames have been acted on; they must not cause a second drop.
            lates = lates.map { _ in false }
            return lower
        }

        let faster = choices.highest(withIntervalAtLeast: scaled(largest, tuning.climbMargin))
        guard faster > current, lateCount == 0 else {
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
