/// When a frame's callback runs: the trade between even pacing and input latency.
///
/// A cap paces presents, but the callback (which reads input) normally starts
/// right after the previous present, so at 60 FPS with 2 ms of work the input
/// it read is about 16 ms old when the frame reaches the glass. Starting the
/// callback just in time, as `CAMetalDisplayLink.preferredFrameLatency` does,
/// keeps presents on their targets and cuts that to the frame's own cost.
public enum FrameLatency: String, Sendable, Equatable, CaseIterable {
    /// The callback starts as soon as the previous frame is presented; the
    /// presenter then waits for the target. Most slack for a slow frame.
    case smooth
    /// The loop waits before the callback until the target minus the frame's
    /// predicted cost and a safety (see `FrameCostPredictor`), so input is
    /// read as late as the frame can afford.
    case low
}
