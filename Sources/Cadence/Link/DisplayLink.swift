/// A display link for SDL with the semantics of Apple's `CADisplayLink`.
///
/// The link decides, for each callback, which display slot the frame will be
/// shown at (its target) and how far the game should advance (its delta). It
/// does not wait or present: a driver (``FrameLoop``, with the simulator or
/// the SDL backend) calls `nextFrame(now:flips:timing:)` once per frame,
/// runs the callback, and presents at the target.
///
/// Targets lie on the link's *cadence* (`FrameCadence`): a grid anchored
/// where the last frame reached the glass when the rate or the display last
/// changed, stepping every n-th vblank on a fixed display or every 1/rate
/// otherwise, in exact integer time. A target is the first cadence slot after
/// the callback starts (a first frame's, after about an interval for its work:
/// ``presentLead``; with variable refresh, at least the panel's
/// shortest interval after the last flip), so a long frame skips slots (and
/// says how many) rather than drifting, and a rate change takes effect at the
/// next callback, on the next achievable slot at the new rate.
@_spi(Programs) public final class DisplayLink {
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

    /// No pacing: with no vsync (``DisplayTiming/unsynced(reported:)``), frames come as fast as the
    /// game makes them. Each callback's target is its own start (the `now` it is planned at), the
    /// earliest the frame can reach the glass (it is presented the moment its work ends, so it is
    /// never early, and with no slot to meet never late); its delta is the time since the previous
    /// callback's start, the game's real frame time; `duration` stays the display's interval. Where
    /// the display still synchronizes (vsync could not be turned off) the link runs at its
    /// preferred range as usual.
    public var isUncapped = false

    /// Whether ``invalidate()`` was called; the driver stops for good.
    public private(set) var isInvalidated = false

    /// The largest delta handed to the game. A gap longer than this (a suspended laptop, a debugger stop) is
    /// clamped to it, and the link resynchronises to the display instead of catching up. 1.5 s lets a
    /// callback that took a whole second still be counted exactly.
    public var maximumDelta: Nanoseconds = 1_500_000_000

    /// Slack when deciding whether a slot is still in the future, for real time, where present-return times
    /// jitter around the vblank. A slot closer than this to the reference time counts as passed. 0 in
    /// simulation.
    public var jitterTolerance: Nanoseconds

    /// The fastest the link may run for a reason other than the request: what the present path sustains or
    /// the game's work allows (the ``FrameLoop`` sets it, the lower of `PresentThroughput` and
    /// `WorkRateCeiling`). Above it the link runs the highest achievable rate at or below it, as for a cap,
    /// and the frame says why; the preferred range is left as the game set it. Nil: no such limit.
    public internal(set) var rateCeiling: RateCeiling?

    /// How much later than its slot this path shows a frame (the
    /// ``FrameLoop`` sets it from what the platform reported, see
    /// `PathLatency`): each paced frame's target is its slot plus this, so
    /// the target is when the frame reaches the glass; the cadence, and the
    /// present, stay on the slots. 0: the path shows a frame at its slot.
    public internal(set) var pathLatency: Nanoseconds = 0

    /// How long before its target a frame starts just in time (the ``FrameLoop`` sets it with
    /// ``FrameLatency/low``: the predicted cost). After a frame late by more than ``jitterTolerance``, whose
    /// glass is when the next callback can start, a first slot closer than this cannot be met: the cadence
    /// then starts again from that glass, as after a rate change, so the work has its whole interval and the
    /// frames are on target again instead of each being held a slot. 0: callbacks start when planned.
    public internal(set) var justInTimeLead: Nanoseconds = 0

    /// How long before its slot a frame's present goes out, where it returns before the vblank (the
    /// ``FrameLoop`` sets it from `FrameBackend.vsyncLead(on:)`; 0 where the present waits for the vblank,
    /// from which the next frame's work then starts). A first frame (after a pause too), whose work is the
    /// costliest (the game's first text and textures), has at least 7/8 of an interval before then, about
    /// what a later frame has after the present before it, not a slot that is nearly now.
    public internal(set) var presentLead: Nanoseconds = 0

    private var cadence: (slots: FrameCadence, effective: EffectiveRate, timing: DisplayTiming)?
    /// The previous paced frame's slot (its target less its path latency).
    private var previousTarget: Nanoseconds?
    private var previousPathLatency: Nanoseconds = 0
    private var callbackCount = 0

    /// A link wanting `range`; `jitterTolerance` as above (0 for exact virtual time).
    public init(preferred range: FrameRateRange = .displayRate, jitterTolerance: Nanoseconds = 0) {
        preferredFrameRateRange = range
        self.jitterTolerance = jitterTolerance
    }

    /// Stops the link for good.
    public func invalidate() {
        isInvalidated = true
    }

    /// Plans the next callback, the previous frame having reached the glass
    /// at `lastFlip` (nil before the first) and nothing known of the one before.
    public func nextFrame(now: Nanoseconds, lastFlip: Nanoseconds?, timing: DisplayTiming) -> DisplayLinkFrame {
        nextFrame(now: now, flips: FlipHistory(last: lastFlip), timing: timing)
    }

    /// Plans the next callback. `FrameLoop` calls it every frame; public for a
    /// loop of one's own and for measuring the link alone (`cadence-bench`).
    ///
    /// - Parameters:
    ///   - now: when the callback starts.
    ///   - flips: when the last two frames reached the glass (the vblanks
    ///     that showed them); empty before the first frame.
    ///   - timing: what the display can do now.
    package func nextFrame(now: Nanoseconds, flips: FlipHistory, timing: DisplayTiming) -> DisplayLinkFrame {
        if isUncapped, case .unsynced = timing { return unpacedFrame(now: now, lastFlip: flips.last, timing: timing) }
        let lastFlip = flips.last
        let (effective, reason) = plannedRate(on: timing)
        // Targets lie strictly after this: now, and never before the last
        // frame's flip nor, on a VRR panel, inside its shortest interval after it.
        var reference = max(now, lastFlip.map { $0 + max(0, timing.shortestFlipInterval - 1) } ?? now)
        if cadence?.effective != effective || cadence?.timing != timing {
            // Nor on the previous frame's own vblank, where the grid was only re-estimated.
            if let taken = previousVblank(onRemeasured: timing) { reference = max(reference, taken) }
            cadence = (FrameCadence(effective: effective, timing: timing, shown: lastFlip ?? previousTarget,
                                   reference: reference), effective, timing)
        }
        let soonest = now + presentLead + effective.rate.period * 7 / 8 - jitterTolerance - 1
        var target = usableTarget(after: previousTarget == nil ? max(reference, soonest) : reference, flips: flips, timing: timing)
        if let lastFlip, let previousTarget, lastFlip > previousTarget + previousPathLatency + jitterTolerance,
           target - now < justInTimeLead {
            cadence = (FrameCadence(effective: effective, timing: timing, shown: lastFlip, reference: reference),
                       effective, timing)
            target = usableTarget(after: reference, flips: flips, timing: timing)
        }
        // The game advances to when the glass shows the frame: a change of
        // the path's latency moves that as much as the slot does.
        var latency = pathLatency(after: target, on: timing)
        var delta = previousTarget.map { target - $0 + latency - previousPathLatency }
        let clamped = (delta ?? 0) > maximumDelta
        if clamped {
            // A clock anomaly: hand the game a bounded step and start the
            // cadence afresh from here rather than catching up from a stale anchor.
            cadence = (FrameCadence(effective: effective, timing: timing, shown: lastFlip, reference: reference),
                       effective, timing)
            target = usableTarget(after: reference, flips: flips, timing: timing)
            latency = pathLatency(after: target, on: timing)
            delta = maximumDelta
        }
        let interval = effective.rate.period
        var frame = DisplayLinkFrame(
            index: callbackCount,
            timestampNanoseconds: lastFlip ?? cadence!.slots.slot(0),
            targetTimestampNanoseconds: target + latency,
            deltaNanoseconds: delta ?? interval,
            effectiveRate: effective,
            timing: timing,
            cadence: cadence!.slots,
            skippedFrames: delta.map { clamped ? 0 : max(0, Int(($0 + interval / 2) / interval) - 1) } ?? 0,
            deltaWasClamped: clamped,
            rateReason: reason
        )
        frame.cap = cap(honouredBy: effective, on: timing)
        frame.pathLatency = latency
        previousTarget = target
        previousPathLatency = latency
        callbackCount += 1
        return frame
    }

    /// An uncapped frame (see ``isUncapped``): targeted at the callback's
    /// start (never before the last flip, and after the previous target, so
    /// deltas stay positive even when a frame starts on its predecessor's
    /// flip), with no cadence kept, so a limit chosen later starts its
    /// cadence from where the glass is.
    private func unpacedFrame(now: Nanoseconds, lastFlip: Nanoseconds?, timing: DisplayTiming) -> DisplayLinkFrame {
        let target = max(now, lastFlip ?? now, previousTarget.map { $0 + 1 } ?? now)
        previousPathLatency = 0
        var delta = previousTarget.map { target - $0 } ?? timing.minimumInterval
        let clamped = delta > maximumDelta
        if clamped { delta = maximumDelta }
        let effective = FrameRateSnapper.effectiveRate(for: preferredFrameRateRange, on: timing)
        cadence = nil
        let frame = DisplayLinkFrame(
            index: callbackCount,
            timestampNanoseconds: lastFlip ?? target,
            targetTimestampNanoseconds: target,
            deltaNanoseconds: delta,
            effectiveRate: effective,
            timing: timing,
            cadence: FrameCadence(grid: VsyncGrid(origin: target, rate: effective.rate), anchorIndex: 0, stride: 1),
            skippedFrames: 0,
            deltaWasClamped: clamped,
            rateReason: .request,
            isPaced: false
        )
        previousTarget = target
        callbackCount += 1
        return frame
    }

    /// The previous frame's vblank on `timing`'s grid, where that grid is the
    /// previous frame's measured grid refitted (``FrameRate/isRefit(of:)``) and
    /// the previous frame was paced on it; nil otherwise. A refitted clock moves
    /// the same vblanks by a fraction of a refresh: the previous frame is on the
    /// moved instant nearest its target, and a frame planned for a vblank that
    /// moved later would follow the last by less than a refresh. A new display
    /// mode starts a grid from its nominal rate, and its first vblank is free.
    private func previousVblank(onRemeasured timing: DisplayTiming) -> Nanoseconds? {
        guard case .fixed(let old) = cadence?.timing, case .fixed(let new) = timing, old.isMeasured, new.isMeasured,
              new.rate.isRefit(of: old.rate), let previousTarget else { return nil }
        return new.time(at: new.nearestIndex(to: previousTarget))
    }

    /// How long after `slot` the path shows a frame presented for it
    /// (``pathLatency``), to a vblank of a fixed grid: the grid's own
    /// rounding of each vblank, not the period's.
    private func pathLatency(after slot: Nanoseconds, on timing: DisplayTiming) -> Nanoseconds {
        guard pathLatency > 0, case .fixed(let grid) = timing else { return pathLatency }
        let refreshes = (pathLatency + grid.rate.period / 2) / grid.rate.period
        return grid.time(at: grid.nearestIndex(to: slot) + refreshes) - slot
    }

    /// The first slot of the cadence after `reference`, where the display can
    /// show it. On a variable-refresh panel the driver may be repeating the
    /// previous frame then (see `LowFramerateCompensation`); the frame is
    /// then for the moment that repeat's scan-out ends, and the cadence starts
    /// again from there, rather than a whole interval later.
    private func usableTarget(after reference: Nanoseconds, flips: FlipHistory,
                              timing: DisplayTiming) -> Nanoseconds {
        let first = cadence!.slots.firstSlot(after: reference + jitterTolerance)
        guard case .variable(let minimum, let maximum) = timing,
              let hold = LowFramerateCompensation(minimum: minimum, maximum: maximum).hold(after: flips),
              !hold.canShow(at: first) else { return first }
        let free = hold.shownAt(presentedAt: first)
        let effective = cadence!.effective
        cadence = (FrameCadence(grid: VsyncGrid(origin: free, rate: effective.rate), anchorIndex: 0, stride: 1),
                   effective, timing)
        return free
    }

    /// Forgets the previous target, so the next callback is planned as a first
    /// one (delta of one interval). Called on resume from a pause.
    public func resynchronize() {
        cadence = nil
        previousTarget = nil
    }
}
