/// When to present one frame, and when to show it again.
public struct PresentPlan: Equatable, Sendable {
    /// The mode the plan was made in.
    public let mode: PresentMode
    /// Present no earlier than this.
    public let submitAt: Nanoseconds
    /// Low framerate compensation: times to present this same frame again so a
    /// VRR panel below its minimum rate never waits past its longest interval.
    /// Empty unless variable refresh runs below the panel's minimum.
    public let repeats: [Nanoseconds]

    /// Plans `frame`'s present.
    ///
    /// - vsync: half a refresh before the target vblank, the middle of the one
    ///   refresh-long window whose presents land on the target. Presenting
    ///   earlier would show the frame a vblank early; the middle tolerates an
    ///   error in the estimated vblank phase either way. At the display's full
    ///   rate that moment has already passed when the callback starts, so the
    ///   frame is presented as soon as it is drawn.
    /// - timed: exactly the target.
    public init(for frame: DisplayLinkFrame) {
        let target = frame.targetTimestampNanoseconds
        mode = PresentMode(for: frame.timing)
        switch frame.timing {
        case .fixed(let grid):
            submitAt = target - grid.rate.period / 2
            repeats = []
        case .variable, .unsynced:
            submitAt = target
            let copies = frame.effectiveRate.presentsPerFrame
            let next = target + frame.effectiveRate.rate.period
            repeats = copies <= 1 ? [] : (1..<copies).map { j in
                target + (next - target) * j / copies
            }
        }
    }
}
