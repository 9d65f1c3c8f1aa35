/// The one setting for how fast a game runs, in the spirit of
/// bevy_framepace's `Limiter`: the display's rate, a cap, a full
/// `FrameRateRange`, or adaptive. Set it on ``FrameLoop/rateLimit``; the loop
/// applies it to its link (and, for adaptive, runs the controller itself).
public enum FrameRateLimit: Equatable, Sendable {
    /// Every refresh of the display (or the timer's rate without vsync).
    case displayRate
    /// At most `fps` frames a second: the range 0…fps, preferring fps.
    case cap(Double)
    /// Any range, as `CAFrameRateRange` expresses it.
    case range(FrameRateRange)
    /// The highest rate the game sustains evenly, chosen frame by frame by
    /// an ``AdaptiveRateController`` from the work each frame took.
    case adaptive

    /// The range the link is asked for; nil for adaptive, whose range the
    /// controller sets each frame.
    public var frameRateRange: FrameRateRange? {
        switch self {
        case .displayRate: .displayRate
        case .cap(let fps): FrameRateRange(minimum: 0, maximum: fps, preferred: fps)
        case .range(let range): range
        case .adaptive: nil
        }
    }
}
