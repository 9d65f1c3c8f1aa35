/// When to present one frame, and whether to repeat the previous one before it.
public struct PresentPlan: Equatable, Sendable {
    /// The mode the plan was made in.
    public let mode: PresentMode
    /// Present no earlier than this.
    public let submitAt: Nanoseconds
    /// With variable refresh in effect, how to keep the panel inside its range
    /// while waiting for this frame (low framerate compensation); nil otherwise.
    public let compensation: LowFramerateCompensation?

    /// Plans the present of `frame`, whose work ended at `workEnd`.
    ///
    /// - vsync: half a refresh before the vblank the frame is for. A present in
    ///   the refresh before a vblank is shown on it, so this is the middle of
    ///   the one refresh-long window whose presents land there: earlier would
    ///   show the frame a vblank early (at a rate below the refresh), and the
    ///   middle tolerates an error in the estimated vblank phase either way,
    ///   which in real time is what present-return jitter leaves. The vblank is
    ///   the target or, when the work ran past it, the next slot of the link's
    ///   cadence (every n-th vblank at R/n): a late frame is held to the
    ///   cadence instead of being shown on the first free vblank, so the next
    ///   callback starts on the cadence and has a whole interval for its work.
    ///   Otherwise one overrun would shift every later frame to the vblanks
    ///   between the cadence's, each with one refresh less for its work.
    /// - timed: exactly the target, never earlier: with no vsync or with
    ///   variable refresh, a frame is shown when it is presented.
    public init(for frame: DisplayLinkFrame, workEndedAt workEnd: Nanoseconds) {
        let target = frame.targetTimestampNanoseconds
        mode = PresentMode(for: frame.timing)
        switch frame.timing {
        case .fixed(let grid):
            submitAt = Self.cadenceSlot(atOrAfter: workEnd, target: target, stride: frame.effectiveRate.vsyncStride,
                                        on: grid) - grid.rate.period / 2
            compensation = nil
        case .variable(let minimum, let maximum):
            submitAt = target
            compensation = LowFramerateCompensation(minimum: minimum, maximum: maximum)
        case .unsynced:
            submitAt = target
            compensation = nil
        }
    }

    /// The target, or the first vblank of the link's cadence (every `stride`-th
    /// from the target) at or after `time` when `time` is past the target.
    private static func cadenceSlot(atOrAfter time: Nanoseconds, target: Nanoseconds, stride: Int64,
                                    on grid: VsyncGrid) -> Nanoseconds {
        guard time > target else { return target }
        let targetIndex = grid.nearestIndex(to: target)
        let behind = grid.index(atOrAfter: time) - targetIndex
        let strides = (behind + stride - 1) / stride
        return grid.time(at: targetIndex + strides * stride)
    }
}
