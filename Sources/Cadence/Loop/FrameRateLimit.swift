/// The one setting for how fast a game runs, in the spirit of
/// bevy_framepace's `Limiter`: the display's rate, a cap, a full
/// `FrameRateRange`, adaptive, or uncapped. Set it on ``FrameLoop/rateLimit``;
/// the loop applies it to its link and its backend. At every limit the
/// game's own work can hold the rate lower (`WorkRateCeiling`), and the
/// present path's throughput too (`PresentThroughput`): see
/// `DisplayLink.rateCeiling`.
public enum FrameRateLimit: Equatable, Sendable {
    /// Every refresh of the display (or the timer's rate without vsync).
    case displayRate
    /// At most `fps` frames a second: the range 0…fps, preferring fps.
    case cap(Double)
    /// Any range, as `CAFrameRateRange` expresses it.
    case range(FrameRateRange)
    /// The highest rate the game sustains evenly, chosen frame by frame from
    /// what each frame cost (its work and its present's own cost, with
    /// headroom kept: `WorkRateCeiling`'s adaptive tuning): the link is asked
    /// for the display's rate and held below it by the cost.
    case adaptive
    /// No pacing at all: vsync off and no cap, each frame presented the
    /// moment its work ends and the next begun at once, to measure how fast
    /// the game can go. Frames tear. With nothing to wait for, a frame has
    /// nothing to be late for: its target is the callback's start, its delta
    /// the time since the previous callback's start (see
    /// `DisplayLink.isUncapped`). Where the backend cannot turn vsync off,
    /// the display paces the frames and this is ``displayRate``.
    case uncapped

    /// The range the link is asked for. Adaptive asks for the display's
    /// rate, which the work then lowers; uncapped too, the rate it runs at
    /// where vsync stays on.
    public var frameRateRange: FrameRateRange {
        switch self {
        case .displayRate, .uncapped, .adaptive: .displayRate
        case .cap(let fps): FrameRateRange(minimum: 0, maximum: fps, preferred: fps)
        case .range(let range): range
        }
    }
}
