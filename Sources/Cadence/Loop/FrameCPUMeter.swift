/// Reads the backend's CPU clock at a frame's moments and makes the frame's
/// ``FrameCPU``: the loop's turn since the previous frame's end, the waits
/// before and after the work, and the work itself. With no CPU clock
/// (``FrameBackend/threadCPUTime`` nil) it makes none.
struct FrameCPUMeter {
    /// When the previous turn ended, on the clock and the CPU clock; nil at
    /// the start and after a pause, when the next turn starts where it begins.
    private var lastTurnEnd: (wall: Nanoseconds, cpu: Nanoseconds)?
    private var turnStart: (wall: Nanoseconds, cpu: Nanoseconds)?
    /// The CPU clock before the low-latency wait, then at the callback's start.
    private var workStart: Nanoseconds?
    private var workEnd: Nanoseconds?
    /// What the low-latency wait before the callback took.
    private var waitBefore: Nanoseconds = 0

    /// The frame's turn begins, before the low-latency wait.
    mutating func begin(_ backend: FrameBackend) {
        let cpu = backend.threadCPUTime
        turnStart = lastTurnEnd ?? cpu.map { (backend.clock.now, $0) }
        workStart = cpu
        workEnd = nil
        waitBefore = 0
    }

    /// The callback starts: the CPU since ``begin(_:)`` was the low-latency wait.
    mutating func workStarts(_ backend: FrameBackend) {
        guard let before = workStart, let now = backend.threadCPUTime else { return }
        workStart = now
        waitBefore = now - before
    }

    /// The callback and its drawing's flush are done.
    mutating func workEnds(_ backend: FrameBackend) {
        workEnd = backend.threadCPUTime
    }

    /// The frame was presented after a wait that took `waitCPU`: its figures;
    /// the next turn starts here.
    mutating func end(_ backend: FrameBackend, waitCPU: Nanoseconds?) -> FrameCPU? {
        guard let turnStart, let workStart, let workEnd, let waitCPU, let cpu = backend.threadCPUTime else { return nil }
        let now = backend.clock.now
        lastTurnEnd = (now, cpu)
        return FrameCPU(work: workEnd - workStart, pacing: waitBefore + waitCPU, loop: cpu - turnStart.cpu,
                        span: now - turnStart.wall)
    }

    /// After a pause: the next turn starts where it begins, not at the last frame's end.
    mutating func forget() { lastTurnEnd = nil }
}
