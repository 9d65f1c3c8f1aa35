/// The one loop that drives a game: link → update/render → presenter → present → statistics.
///
/// Each turn asks the ``DisplayLink`` for the frame's target, lets the game
/// update to that target and draw, then presents according to the
/// ``PresentPlan``: in the refresh before the target vblank with vsync, at the
/// target itself when timed (VRR or no vsync), a late frame held to the next
/// slot of the cadence, repeating the previous frame in between when variable
/// refresh runs below the panel's minimum. With
/// ``latency`` `.low` it waits *before* the callback instead, until the target
/// less the frame's predicted cost, so the game reads its input just in time.
/// The loop is synchronous, so with SDL every call stays on the main thread.
public final class FrameLoop {
    /// The display link planning each frame.
    public let link: DisplayLink
    /// Where frames are shown.
    public let backend: FrameBackend
    /// How fast to run. Setting it hands the range to the link at once; with
    /// `.adaptive` the loop itself picks the rate before every frame from the
    /// work the previous frames took. Until it is set, the link's own
    /// preferred range is left as the game sets it.
    public var rateLimit: FrameRateLimit {
        didSet {
            guard rateLimit != oldValue else { return }
            adaptive = rateLimit == .adaptive ? AdaptiveRateController() : nil
            if let range = rateLimit.frameRateRange { link.preferredFrameRateRange = range }
        }
    }
    /// Whether the rate follows the game's work (the trace then records the
    /// cap as `adaptive`).
    public var isAdaptive: Bool { rateLimit == .adaptive }
    /// The requested rate as the trace records it: the FPS cap, nil when adaptive.
    public var requestedFPS: Double? { isAdaptive ? nil : link.preferredFramesPerSecond }
    /// When callbacks start: right after the previous present (`.smooth`), or
    /// just in time for the target (`.low`). Can change between frames.
    public var latency: FrameLatency = .smooth
    /// What frames have cost lately; learned in both modes, so switching to
    /// low latency starts from real figures.
    public internal(set) var costPredictor = FrameCostPredictor()

    /// When the panel last flipped: the previous frame's vblank, or a repeat of it.
    var lastShown: Nanoseconds?
    /// Keeps new frames at least the cap's interval apart (see ``CapSpacing``).
    private var capSpacing = CapSpacing()
    /// The latency the backend was last told of.
    private var latencyInEffect = FrameLatency.smooth
    private var adaptive: AdaptiveRateController?

    /// A loop presenting `link`'s frames on `backend`, at the link's preferred range.
    public init(link: DisplayLink, backend: FrameBackend) {
        self.link = link
        self.backend = backend
        rateLimit = .range(link.preferredFrameRateRange)
    }

    /// How long a paused loop's default ``FrameLoopClient/idle(_:)`` waits
    /// for an event before looking again.
    public static let idleWait: Nanoseconds = 250_000_000

    /// The clock of the backend, for the game's own measurements.
    public var clock: FrameClock { backend.clock }

    /// Runs until the client or ``DisplayLink/invalidate()`` ends it.
    public func run(_ client: FrameLoopClient) {
        defer { tellBackend(.smooth) }
        while !link.isInvalidated {
            guard client.prepareFrame(self), !link.isInvalidated else { return }
            if link.isPaused {
                lastShown = nil
                capSpacing.reset()
                guard client.idle(self) else { return }
                continue
            }
            if let choice = adaptive?.rate(for: RateChoices(backend.currentTiming())) {
                link.preferredFramesPerSecond = choice
            }
            let record = runOneFrame(client)
            adaptive?.record(cost: record.cost(on: backend.currentTiming()), at: record.presentTime)
            costPredictor.observe(record)
            client.framePresented(record, self)
        }
    }

    /// One turn of the loop; the record of what happened.
    private func runOneFrame(_ client: FrameLoopClient) -> FrameRecord {
        let clock = backend.clock
        let planned = clock.now
        let timing = backend.currentTiming()
        let frame = link.nextFrame(now: planned, lastShown: lastShown, timing: timing)
        tellBackend(latency)
        if latency == .low { waitForJustInTimeStart(of: frame) }
        let start = clock.now
        client.runFrame(frame, self)
        let workEnd = clock.now

        // The display may change while the frame waits (a mode switch, VRR
        // toggled): then the plan is made again for the display as it is.
        var lastFlip = lastShown
        let cap = self.cap(honouredBy: frame)
        let timingAtWorkEnd = backend.currentTiming()
        var plan = PresentPlan(for: frame, on: timingAtWorkEnd, workEndedAt: workEnd, lastFlip: lastFlip,
                               tolerance: link.jitterTolerance, vsyncLead: backend.vsyncLead(on: timingAtWorkEnd))
        var scheduled = plan.submitAt
        while true {
            if let compensation = plan.compensation, var flip = lastFlip {
                while let time = compensation.nextRepeat(after: flip, now: clock.now, before: plan.submitAt) {
                    backend.wait(until: time)
                    flip = backend.present(isRepeat: true).shownAt
                }
                lastFlip = flip
            }
            scheduled = max(plan.submitAt, capSpacing.earliestPresent(cap: cap) ?? plan.submitAt)
            backend.wait(until: scheduled)
            let timingNow = backend.currentTiming()
            if timingNow == plan.timing { break }
            plan = PresentPlan(for: frame, on: timingNow, workEndedAt: clock.now, lastFlip: lastFlip,
                               tolerance: link.jitterTolerance, vsyncLead: backend.vsyncLead(on: timingNow))
        }
        let submitted = clock.now
        let outcome = backend.present(isRepeat: false)
        capSpacing.presented(at: scheduled, cap: cap)
        lastShown = outcome.shownAt

        let record = FrameRecord(
            frame: frame.index,
            timestamp: frame.timestampNanoseconds,
            targetTimestamp: frame.targetTimestampNanoseconds,
            presentTime: outcome.tracedAt,
            delta: frame.deltaNanoseconds,
            fpsCap: requestedFPS,
            effectiveHz: frame.effectiveRate.rate.hz,
            refreshMode: timing.refreshMode,
            callbackStart: start,
            workEnd: workEnd,
            presentSubmit: submitted,
            skippedFrames: frame.skippedFrames
        )
        return record
    }

    /// The rate no two new frames may exceed: the range's maximum where the
    /// link's rate honours it; nil when the rate is adaptive, the range has no
    /// maximum, or none of the display's rates lies inside the range (then
    /// the link runs the nearest one, as `CAFrameRateRange` does).
    private func cap(honouredBy frame: DisplayLinkFrame) -> FrameRate? {
        let maximum = link.preferredFrameRateRange.maximum
        guard !isAdaptive, maximum > 0,
              frame.effectiveRate.rate.hz <= maximum * (1 + FrameRateSnapper.capTolerance) else { return nil }
        return FrameRate(hz: maximum)
    }

    /// Tells the backend of a latency change, on the loop's thread (see
    /// ``FrameBackend/latencyChanged(to:)``).
    private func tellBackend(_ wanted: FrameLatency) {
        guard wanted != latencyInEffect else { return }
        latencyInEffect = wanted
        backend.latencyChanged(to: wanted)
    }
}
