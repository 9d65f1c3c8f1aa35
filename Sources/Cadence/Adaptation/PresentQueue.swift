/// Whether the present path holds a frame queued ahead of the one it shows,
/// so that every frame reaches the glass an interval after its target, and
/// the plan that empties the queue.
///
/// A vsync'd swap on Wayland waits for the compositor to release the frame
/// before (its frame callback), which it does as it composites that frame:
/// Weston 16, 7 ms before the tick. Once one frame is shown an interval late,
/// the next swap waits until that frame is composited, commits just after,
/// misses it and is late too, and so on: the present blocks most of a
/// refresh every frame, and the queue stays one deep whatever the pacing
/// (docs/desktops.md). The frame presented last is then shown an interval
/// after the vblank its estimate says; planning the next frame from that
/// flip puts it on the slot after, where its swap finds the callback already
/// there: the queue is empty, with no gap on the glass (the queued frame
/// fills the slot between).
///
/// The evidence is ``evidence`` frames in a row, each on a fixed grid,
/// reported by the platform exactly one interval of its rate after its
/// target (within ``FrameRecord/lateTolerance``), its work done by its slot
/// and its present blocked for a quarter of that interval or more: a starved
/// present is not late by exactly an interval frame after frame, and a path
/// that shows every frame later without a queue is `PathLatency`'s. Frames
/// the queue explains teach the loop nothing of the path (its rate, its
/// latency). A drain that did not help (no frame on time since) is not tried
/// again: that lateness was the path's own.
package struct PresentQueue: Sendable {
    /// How many frames in a row show a queue.
    package static let evidence = 8
    private var run = 0
    private var interval: Nanoseconds = 0
    /// When the last drain was planned: frames presented before it show the queue it emptied.
    private var drainedAt: Nanoseconds = .min
    private var drainDue = false
    private var onTimeSinceDrain = true

    /// Nothing seen yet.
    package init() {}

    /// Learns from a frame's final record (its glass time as reported);
    /// true when the queue explains its lateness (one of the evidence, or
    /// presented before the drain), which then teaches nothing of the path.
    @discardableResult
    package mutating func observe(_ record: FrameRecord) -> Bool {
        guard record.presentSubmit >= drainedAt else { return true }
        if !record.isLate() { onTimeSinceDrain = true }
        guard let period = record.rate?.period, record.refreshMode == .fixed,
              record.glassSource == .feedback, record.workEnd <= record.slotTimestamp,
              abs(record.glassTime - record.targetTimestamp - period) <= FrameRecord.lateTolerance,
              record.presentTime - record.presentSubmit >= period / 4 else {
            run = 0
            return false
        }
        run += 1
        interval = period
        if run >= Self.evidence && onTimeSinceDrain { drainDue = true }
        return onTimeSinceDrain
    }

    /// The flips to plan the frame starting `now` from: `flips`, or, once
    /// the queue has shown, with the newest an interval later, where the
    /// frame presented last really reaches the glass.
    package mutating func flips(planningFrom flips: FlipHistory, at now: Nanoseconds) -> FlipHistory {
        guard drainDue, let last = flips.last else { return flips }
        (drainDue, run, onTimeSinceDrain, drainedAt) = (false, 0, false, now)
        return FlipHistory(last: last + interval, previous: flips.previous)
    }
}
