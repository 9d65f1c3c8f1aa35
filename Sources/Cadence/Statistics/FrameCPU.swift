/// What one frame cost the loop's thread in CPU time, not wall time: the
/// game's work beside the pacing's, so that a player sees what a cap costs.
///
/// A sleep costs next to no CPU however long it lasts; a spin costs all of
/// its time. Measured on the backend's `FrameBackend.threadCPUTime`
/// (`CLOCK_THREAD_CPUTIME_ID` in real time): the loop's own thread only, not
/// the driver's or the display server's threads.
public struct FrameCPU: Sendable, Equatable {
    /// The game's callback and the flush of its drawing.
    public var work: Nanoseconds
    /// The presenter's waits: before the present, and with low latency
    /// before the callback (the sleep, and the spin that ends it).
    public var pacing: Nanoseconds
    /// The loop's whole turn for this frame, from the end of the previous
    /// one: the work, the pacing, the present itself, events and bookkeeping.
    public var loop: Nanoseconds
    /// The wall time that turn took, which ``loop`` and ``pacing`` are shares of.
    public var span: Nanoseconds

    /// A frame's CPU figures.
    public init(work: Nanoseconds, pacing: Nanoseconds, loop: Nanoseconds, span: Nanoseconds) {
        self.work = work; self.pacing = pacing; self.loop = loop; self.span = span
    }

    /// The sum of two frames' figures, for totals over a run.
    public static func + (a: FrameCPU, b: FrameCPU) -> FrameCPU {
        FrameCPU(work: a.work + b.work, pacing: a.pacing + b.pacing, loop: a.loop + b.loop, span: a.span + b.span)
    }
}
