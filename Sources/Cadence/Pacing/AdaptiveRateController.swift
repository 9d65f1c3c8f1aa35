/// Adaptive frame rate: the highest rate the game can sustain evenly.
///
/// It keeps a rolling window of measured frame work (callback start to the end
/// of the game's work) and asks for the highest achievable rate whose interval
/// holds the average work plus a safety margin. It is deliberately asymmetric,
/// so it never oscillates:
/// - **down fast**: when frames start missing their targets, or the average no
///   longer fits the current interval, it drops at once to a rate that holds
///   the *largest* recent frame;
/// - **up slowly**: it climbs only after the work has fitted a faster rate with
///   a wider margin for ``climbAfter`` without interruption.
public struct AdaptiveRateController: Sendable {
    /// How many recent frames the averages look at.
    public var window = 16
    /// Headroom kept when staying at or dropping to a rate (15%).
    public var keepMargin = 0.15
    /// Headroom a faster rate must have before the controller climbs to it (30%).
    public var climbMargin = 0.30
    /// How long a faster rate must keep fitting before the controller climbs.
    public var climbAfter: Nanoseconds = 500_000_000
    /// Late frames within the window that trigger an immediate drop.
    public var lateFramesToDrop = 2

    private var works: [Nanoseconds] = []
    private var lates: [Bool] = []
    private var next = 0
    private var now: Nanoseconds = 0
    private var current: FrameRate?
    private var headroomSince: Nanoseconds?

    /// A controller with the default tuning.
    public init() {}

    /// The rate chosen last (nil before the first call to ``rate(for:)``).
    public var chosenRate: FrameRate? { current }

    /// Adds one frame's measured work; `late` when it reached the glass after
    /// its target; `time` when it was measured.
    public mutating func record(work: Nanoseconds, late: Bool, at time: Nanoseconds) {
        if works.count < window {
            works.append(work); lates.append(late)
        } else {
            works[next] = work; lates[next] = late
            next = (next + 1) % window
        }
        now = time
    }

    /// The rate to ask the display link for now, in Hz.
    public mutating func rate(for choices: RateChoices) -> Double {
        let chosen = decide(choices)
        current = chosen
        return chosen.hz
    }

    private mutating func decide(_ choices: RateChoices) -> FrameRate {
        guard let current, !works.isEmpty else { return choices.highest }
        let average = works.reduce(0, +) / Nanoseconds(works.count)
        let largest = works.max()!
        let sustainable = choices.highest(withIntervalAtLeast: scaled(average, keepMargin))
        let missing = lates.filter { $0 }.count >= lateFramesToDrop
        if missing || sustainable < current {
            headroomSince = nil
            let safe = choices.highest(withIntervalAtLeast: scaled(missing ? largest : average, keepMargin))
            if safe < current {
                forgetLateFrames()
                return safe
            }
            return current
        }
        let faster = choices.highest(withIntervalAtLeast: scaled(largest, climbMargin))
        guard faster > current else {
            headroomSince = nil
            return min(current, choices.highest)
        }
        let since = headroomSince ?? now
        headroomSince = since
        if now - since >= climbAfter {
            headroomSince = nil
            return faster
        }
        return current
    }

    /// Late frames already acted on must not trigger a second drop.
    private mutating func forgetLateFrames() {
        for i in lates.indices { lates[i] = false }
    }

    private func scaled(_ span: Nanoseconds, _ margin: Double) -> Nanoseconds {
        Nanoseconds(Double(span) * (1 + margin))
    }
}
