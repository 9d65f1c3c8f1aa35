/// Low framerate compensation: when to show the previous frame again so a
/// variable-refresh panel never waits longer than it can.
///
/// A VRR panel holds a frame for at most `longest` (1 / its minimum rate). If
/// no new frame arrives by then it refreshes by itself, and that refresh keeps
/// it busy for `shortest` (1 / its maximum rate): a frame presented during it
/// is shown late. Below the panel's minimum rate the presenter therefore
/// presents the previous frame again in between, spaced evenly so that every
/// gap between flips is at least `shortest` and less than `longest`.
///
/// Repeats are decided one at a time, from the last flip and the current time,
/// because in a synchronous loop a repeat cannot be shown while the game is
/// still working: a repeat whose even slot passed during the work is shown as
/// soon as the work ends, provided the panel can still take it and the new
/// frame can follow it at least `shortest` later. When it cannot, the panel is
/// left to refresh by itself, as it would without compensation.
public struct LowFramerateCompensation: Equatable, Sendable {
    /// The panel's range.
    public let minimum: FrameRate, maximum: FrameRate

    /// Compensation for a panel whose range is `minimum...maximum`.
    public init(minimum: FrameRate, maximum: FrameRate) {
        self.minimum = min(minimum, maximum)
        self.maximum = maximum
    }

    /// The shortest time the panel shows a frame: 1 / maximum rate, rounded
    /// down, so flips on an exact grid at the maximum rate all qualify.
    public var shortest: Nanoseconds { maximum.shortestPeriod }
    /// The longest time the panel holds a frame: 1 / minimum rate, rounded up,
    /// so repeats on an exact grid at the minimum rate all arrive in time.
    public var longest: Nanoseconds { minimum.longestPeriod }

    /// How many times the panel refreshed by itself after the flip at
    /// `lastFlip`, before `now`: the j-th such refresh comes exactly j / minimum
    /// after the flip unless a frame arrived by then (a frame arriving at that
    /// very instant is shown instead).
    public func selfRefreshes(after lastFlip: Nanoseconds, before now: Nanoseconds) -> Int64 {
        now - lastFlip <= longest ? 0 : minimum.periods(in: now - lastFlip - 1)
    }

    /// When the panel last flipped, by itself or not, before `now`.
    public func latestFlip(after lastFlip: Nanoseconds, before now: Nanoseconds) -> Nanoseconds {
        lastFlip + minimum.offset(ofFrame: selfRefreshes(after: lastFlip, before: now))
    }

    /// The earliest a frame presented at `now` can be shown: the panel's
    /// shortest interval after its latest flip, exact (j / minimum + 1 / maximum
    /// after the flip at `lastFlip`, rounded down).
    public func earliestFlip(after lastFlip: Nanoseconds, presentedAt now: Nanoseconds) -> Nanoseconds {
        lastFlip + minimum.offset(ofFrames: selfRefreshes(after: lastFlip, before: now), plusOnePeriodOf: maximum)
    }

    /// Whether the panel can show a frame exactly `gap` after a flip, with
    /// repeats in between: the gap must split into pieces each between the
    /// panel's shortest and longest interval. On a wide range every gap past
    /// the shortest can; on a narrow one there are holes (90–100 Hz: 15 ms is
    /// too long for one piece and too short for two).
    public func canSplit(_ gap: Nanoseconds) -> Bool {
        guard gap >= shortest else { return false }
        // The fewest pieces no longer than 1/minimum, then whether they are long enough.
        let pieces = minimum.periods(in: gap - 1) + 1
        return maximum.offsetRoundedDown(ofFrame: pieces) <= gap
    }

    /// Whether a frame can reach the glass at exactly `time`, the panel having
    /// flipped at `lastFlip` and the presenter being free from `now` on: at
    /// once if the panel is free and still holding its frame then, or after
    /// repeats, the first of which goes out once the panel is free and before
    /// it refreshes by itself again.
    public func canShow(at time: Nanoseconds, after lastFlip: Nanoseconds, from now: Nanoseconds) -> Bool {
        let earliest = max(now, earliestFlip(after: lastFlip, presentedAt: now))
        let holdsUntil = latestFlip(after: lastFlip, before: now) + longest
        guard time >= earliest else { return false }
        if time <= holdsUntil { return true }
        // A first repeat at some r in earliest...holdsUntil, then time − r must split.
        var pieces: Int64 = 1
        while earliest + maximum.offsetRoundedDown(ofFrame: pieces) <= time {
            if time <= holdsUntil + minimum.offsetRoundedUp(ofFrame: pieces) { return true }
            pieces += 1
        }
        return false
    }

    /// When to present a repeat next, or nil when none is needed or none can help.
    ///
    /// Evenly spaced when it can be; otherwise (the game worked past the even
    /// time, or the panel's range is narrow) the moment nearest it from which
    /// the rest of the gap can still be split.
    ///
    /// - Parameters:
    ///   - lastFlip: when the panel last showed a frame (new or repeated).
    ///   - now: the current time; a repeat is never planned before it.
    ///   - submitAt: when the next new frame will be presented.
    public func nextRepeat(after lastFlip: Nanoseconds, now: Nanoseconds, before submitAt: Nanoseconds) -> Nanoseconds? {
        let flip = latestFlip(after: lastFlip, before: now)
        let gap = submitAt - flip
        guard gap > longest else { return nil }
        // The fewest pieces no longer than `longest` that the gap splits into, evenly.
        let pieces = (gap + longest - 1) / longest
        let even = flip + gap / pieces
        let earliest = max(now, earliestFlip(after: lastFlip, presentedAt: now)), latest = flip + longest
        guard earliest <= latest else { return nil }
        let first = max(even, earliest)
        if first <= latest, canSplit(submitAt - first) { return first }
        // The repeat times r whose remainder submitAt − r splits into k pieces form
        // [submitAt − k/minimum, submitAt − k/maximum]; the one nearest `even` within reach.
        var best: Nanoseconds?
        var k: Int64 = 1
        while submitAt - maximum.offsetRoundedDown(ofFrame: k) >= earliest {
            let low = max(earliest, submitAt - minimum.offsetRoundedUp(ofFrame: k))
            let high = min(latest, submitAt - maximum.offsetRoundedDown(ofFrame: k))
            if low <= high {
                let candidate = min(high, max(low, even))
                if best.map({ abs(candidate - even) < abs($0 - even) }) ?? true { best = candidate }
            }
            k += 1
        }
        return best
    }
}
