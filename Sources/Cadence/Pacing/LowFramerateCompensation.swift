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
    /// The shortest time the panel shows a frame: 1 / maximum rate, rounded
    /// down, so flips on an exact grid at the maximum rate all qualify.
    public let shortest: Nanoseconds
    /// The longest time the panel holds a frame: 1 / minimum rate, rounded up,
    /// so repeats on an exact grid at the minimum rate all arrive in time. A
    /// frame arriving exactly this long after a flip is shown; one later, and
    /// the panel has refreshed by itself first.
    public let longest: Nanoseconds

    /// Compensation for a panel whose range is `minimum...maximum`.
    public init(minimum: FrameRate, maximum: FrameRate) {
        shortest = maximum.shortestPeriod
        longest = max(shortest, minimum.longestPeriod)
    }

    /// When the panel last flipped by itself, before `now`, if it held the
    /// frame flipped at `lastFlip` for longer than it can: its own refreshes
    /// come every `longest` after that flip.
    public func latestFlip(after lastFlip: Nanoseconds, before now: Nanoseconds) -> Nanoseconds {
        guard now > lastFlip + longest else { return lastFlip }
        return lastFlip + (now - lastFlip - 1) / longest * longest
    }

    /// When to present a repeat next, or nil when none is needed or none can help.
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
        let at = max(even, now, flip + shortest)
        guard at <= flip + longest, at + shortest <= submitAt else { return nil }
        return at
    }
}
