/// A display link for SDL with the semantics of Apple's `CADisplayLink`.
///
/// The link decides, for each callback, which display slot the frame will be
/// shown at (its target) and how far the game should advance (its delta). It
/// does not wait or present: a driver (``FrameLoop``, with the simulator or
/// the SDL backend) calls ``nextFrame(now:lastShown:timing:)`` once per frame,
/// runs the callback, and presents at the target.
///
/// Targets lie on the link's *cadence*: a grid anchored where the rate last
/// changed, stepping every n-th vblank on a fixed display or every 1/rate
/// otherwise, in exact integer time. A target is the first cadence slot after
/// the callback starts, so a long frame skips slots (and says how many) rather
/// than drifting, and a rate change takes effect at the next callback, on the
/// next achievable slot at the new rate.
public final class DisplayLink {
    /// What the game would like; snapped to the display at each callback.
    public var preferredFrameRateRange: FrameRateRange

    /// Shorthand for a range with only `preferred` set (0 = display's rate).
    public var preferredFramesPerSecond: Double {
        get { preferredFrameRateRange.preferred }
        set { preferredFrameRateRange = FrameRateRange(fps: newValue) }
    }

    /// While paused the driver makes no callbacks (and rests the CPU). On
    /// resume the next callback starts afresh: no catch-up burst, and its delta
    /// is one frame interval rather than the time spent paused.
    public var isPaused: Bool = false {
        didSet { if oldValue && !isPaused { resynchronize() } }
    }

    /// Whether ``invalidate()`` was called; the driver stops for good.
    public private(set) var isInvalidated = false

    /// The largest delta handed to the game. A gap longer than this (a
    /// suspended laptop, a debugger stop) is clamped to it, and the link
    /// resynchronises to the display instead of catching up. 1.5 s lets a
    /// callback that took a whole second still be counted exactly.
    public var maximumDelta: Nanoseconds = 1_500_000_000

    /// Slack when deciding whether a slot is still in the future, for real
    /// time, where present-return times jitter around the vblank. A slot closer
    /// than this to the reference time counts as passed. 0 in simulation.
    public var jitterTolerance: Nanoseconds

    private var cadence: Cadence?
    private var previousTarget: Nanoseconds?
    private var callbackCount = 0

    /// The grid targets are drawn from, and what it was made for.
    private struct Cadence {
        let grid: VsyncGrid
        let anchorIndex: Int64
        let stride: Int64
        let effective: EffectiveRate
        let timing: DisplayTiming

        func slot(_ m: Int64) -> Nanoseconds { grid.time(at: anchorIndex + m * stride) }
    }

    /// A link wanting `range`; `jitterTolerance` as above (0 for exact virtual time).
    public init(preferred range: FrameRateRange = .displayRate, jitterTolerance: Nanoseconds = 0) {
        preferredFrameRateRange = range
        self.jitterTolerance = jitterTolerance
    }

    /// Stops the link for good.
    public func invalidate() {
        isInvalidated = true
    }

    /// Plans the next callback.
    ///
    /// - Parameters:
    ///   - now: when the callback starts.
    ///   - lastShown: when the previous frame reached the glass (the vblank
    ///     that showed it), or nil before the first frame.
    ///   - timing: what the display can do now.
    public func nextFrame(now: Nanoseconds, lastShown: Nanoseconds?, timing: DisplayTiming) -> DisplayLinkFrame {
        let effective = FrameRateSnapper.effectiveRate(for: preferredFrameRateRange, on: timing)
        // Targets lie strictly after this: now, but never before the last
        // frame's vblank nor, on a VRR panel, inside its shortest interval after it.
        let reference = max(now, lastShown.map { $0 + Self.recovery(of: timing) } ?? now)
        if cadence?.effective != effective || cadence?.timing != timing {
            cadence = makeCadence(effective: effective, timing: timing, reference: reference)
        }
        var target = nextTarget(after: reference)
        var delta = previousTarget.map { target - $0 }
        let clamped = (delta ?? 0) > maximumDelta
        if clamped {
            // A clock anomaly: hand the game a bounded step and start the
            // cadence afresh from here rather than catching up from a stale anchor.
            previousTarget = nil
            cadence = makeCadence(effective: effective, timing: timing, reference: reference)
            target = nextTarget(after: reference)
            delta = maximumDelta
        }
        let interval = effective.rate.period
        let frame = DisplayLinkFrame(
            index: callbackCount,
            timestampNanoseconds: lastShown ?? cadence!.slot(0),
            targetTimestampNanoseconds: target,
            deltaNanoseconds: delta ?? interval,
            effectiveRate: effective,
            timing: timing,
            skippedFrames: delta.map { clamped ? 0 : max(0, Int(($0 + interval / 2) / interval) - 1) } ?? 0,
            deltaWasClamped: clamped
        )
        previousTarget = target
        callbackCount += 1
        return frame
    }

    /// How soon after a flip the display can show the next frame, less 1 ns
    /// (targets lie strictly after the reference): a VRR panel's shortest
    /// interval. On a fixed grid the next vblank is that far anyway; without
    /// vsync a frame can show at once.
    private static func recovery(of timing: DisplayTiming) -> Nanoseconds {
        if case .variable = timing { return timing.minimumInterval - 1 }
        return 0
    }

    /// The first slot of the current cadence strictly after `reference` (plus
    /// the jitter tolerance), never the anchor itself.
    private func nextTarget(after reference: Nanoseconds) -> Nanoseconds {
        guard let c = cadence else { preconditionFailure("a cadence exists before targets are drawn") }
        let index = c.grid.index(after: reference + jitterTolerance)
        let m = max(1, (index - c.anchorIndex + c.stride - 1) / c.stride)
        return c.slot(m)
    }

    /// Forgets the previous target, so the next callback is planned as a first
    /// one (delta of one interval). Called on resume from a pause.
    public func resynchronize() {
        cadence = nil
        previousTarget = nil
    }

    /// A cadence for `effective` on `timing`, anchored at the previous target
    /// (so a rate change keeps the animation's line) or, for the first frame,
    /// at the reference time.
    private func makeCadence(effective: EffectiveRate, timing: DisplayTiming, reference: Nanoseconds) -> Cadence {
        let anchorTime = previousTarget ?? reference
        switch timing {
        case .fixed(let grid):
            let anchor = previousTarget == nil ? grid.index(atOrBefore: anchorTime) : grid.nearestIndex(to: anchorTime)
            return Cadence(grid: grid, anchorIndex: anchor, stride: effective.vsyncStride,
                           effective: effective, timing: timing)
        case .variable, .unsynced:
            return Cadence(grid: VsyncGrid(origin: anchorTime, rate: effective.rate), anchorIndex: 0, stride: 1,
                           effective: effective, timing: timing)
        }
    }
}
