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
    /// The shortest time the panel shows a frame (1 / maximum rate).
    public let shortest: Nanoseconds
    /// The longest time the panel holds a frame (1 / minimum rate).
    public let longest: Nanoseconds

    /// Compensation for a panel whose range is `minimum...maximum`.
    public init(minimum: FrameRate, maximum: FrameRate) {
        shortest = maximum.period
        longest = minimum.period
    }

    /// When to present a repeat next, or nil when none is needed or none can help.
    ///
    /// - Parameters:
    ///   - lastFlip: when the panel last showed a frame (new or repeated).
    ///   - now: the current time; a repeat is never planned before it.
    ///   - submitAt: when the next new frame will be presented.
    public func nextRepeat(after lastFlip: Nanoseconds, now: Nanoseconds, before submitAt: Nanoseconds) -> Nanoseconds? {
        var flip = lastFlip
        if now > flip + longest {
            // Nothing came in time: the panel refreshed by itself, every `longest`.
            flip += (now - flip) / longest * longest
        }
        let gap = submitAt - flip
        // A frame arriving exactly `longest` after a flip ties with the panel's
        // own refresh; a repeat avoids the tie.
        guard gap >= longest else { return nil }
        // The fewest repeats that cut the gap into pieces shorter than `longest`, evenly spaced.
        let repeats = gap / longest
        let even = flip + gap / (repeats + 1)
        let at = max(even, now, flip + shortest)
        guard at <= flip + longest, at + shortest <= submitAt else { return nil }
        return at
    }
}
