/// The slots a display link's frames are meant for: every `stride`-th
/// instant of `grid`, counted from `anchorIndex`.
///
/// On a fixed display the grid is the display's vblanks and the stride is n
/// at R/n; with variable refresh or no vsync the grid is the link's own, at
/// its rate, with stride 1. Slots are exact instants of the grid, so a frame
/// held to the cadence (shown late, on a later slot) stays on the same
/// straight line as its neighbours: its lag is a whole number of intervals.
package struct FrameCadence: Equatable, Sendable {
    /// The instants slots are drawn from.
    package let grid: VsyncGrid
    /// The grid index of slot 0: where the cadence was anchored.
    package let anchorIndex: Int64
    /// Grid instants per slot.
    package let stride: Int64

    /// A cadence of every `stride`-th instant of `grid` from `anchorIndex`.
    package init(grid: VsyncGrid, anchorIndex: Int64, stride: Int64) {
        precondition(stride > 0, "a cadence steps forward")
        self.grid = grid
        self.anchorIndex = anchorIndex
        self.stride = stride
    }

    /// A link's cadence for `effective` on `timing`, anchored where the last
    /// frame really reached the glass (`shown`), so a new rate after a missed
    /// frame starts from where the glass is, not from a slot that was never
    /// shown; with no frame shown yet, at the callback's start (`reference`).
    package init(effective: EffectiveRate, timing: DisplayTiming, shown: Nanoseconds?, reference: Nanoseconds) {
        switch timing {
        case .fixed(let grid):
            // A shown frame is on a vblank (in real time, near one); the start of a callback is between two.
            let anchor = shown.map { grid.nearestIndex(to: $0) } ?? grid.index(atOrBefore: reference)
            self.init(grid: grid, anchorIndex: anchor, stride: effective.vsyncStride)
        case .variable, .unsynced:
            self.init(grid: VsyncGrid(origin: shown ?? reference, rate: effective.rate), anchorIndex: 0, stride: 1)
        }
    }

    /// The time of slot `m`.
    package func slot(_ m: Int64) -> Nanoseconds {
        grid.time(at: anchorIndex + m * stride)
    }

    /// The first slot strictly later than `time`, from the anchor on.
    package func firstSlot(after time: Nanoseconds) -> Nanoseconds {
        slot(max(0, Self.dividingRoundingUp(grid.index(after: time) - anchorIndex, by: stride)))
    }

    /// The first slot at or after `time`.
    package func firstSlot(atOrAfter time: Nanoseconds) -> Nanoseconds {
        slot(Self.dividingRoundingUp(grid.index(atOrAfter: time) - anchorIndex, by: stride))
    }

    private static func dividingRoundingUp(_ a: Int64, by b: Int64) -> Int64 {
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        return r > 0 ? q + 1 : q
    }
}
