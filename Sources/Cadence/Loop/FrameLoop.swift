/// The one loop that drives a game: link → update/render → presenter → present → statistics.
///
/// Each turn asks the `DisplayLink` for the frame's target, lets the game
/// update to that target and draw, then hands the frame to the `Presenter`,
/// which presents it once according to its `PresentPlan`: in the refresh
/// before the target vblank with vsync, at the target itself when timed (VRR
/// or no vsync), a late frame held to the next slot of the cadence. Below a
/// variable-refresh panel's range the display's driver repeats frames by
/// itself. With ``latency`` `.low` the presenter waits *before* the callback
/// too, until the target less the frame's predicted cost, so the game reads
/// its input just in time. The loop is synchronous, so with SDL every call
/// stays on the main thread.
public final class FrameLoop {
    /// The display link planning each frame.
    @_spi(Programs) public let link: DisplayLink
    /// Where frames are shown.
    @_spi(Programs) public let backend: FrameBackend
    /// How fast to run. Setting it hands the range to the link at once; with
    /// `.adaptive` the link is asked for the display's rate; at every limit
    /// the loop lowers the rate before each frame, by the link's
    /// `DisplayLink.rateCeiling`, to what the work of the previous frames
    /// allows (adaptive keeping headroom); `.uncapped` asks the backend for vsync
    /// off (and another limit gives it back). Until it is set, the link's own
    /// preferred range is left as the game sets it.
    public var rateLimit: FrameRateLimit {
        didSet {
            guard rateLimit != oldValue else { return }
            link.preferredFrameRateRange = rateLimit.frameRateRange
            link.isUncapped = rateLimit == .uncapped
            if link.isUncapped != (oldValue == .uncapped) { backend.uncappedChanged(to: link.isUncapped) }
            // Asked for another rate, the loop tries it before learning again what presents and work reach.
            presentThroughput.reset()
            workCeiling = WorkRateCeiling(tuning: rateLimit == .adaptive ? .adaptive : .request)
        }
    }
    /// Whether the rate follows the game's work (the trace then records the
    /// cap as `adaptive`).
    public var isAdaptive: Bool { rateLimit == .adaptive }
    /// The limit the link runs by, as each frame's record carries it:
    /// ``rateLimit``, or ``FrameRateLimit/range(_:)`` of the link's preferred
    /// range where the game set that on the link itself.
    public var limitInEffect: FrameRateLimit {
        rateLimit == .adaptive || rateLimit == .uncapped || rateLimit.frameRateRange == link.preferredFrameRateRange
            ? rateLimit : .range(link.preferredFrameRateRange)
    }
    /// When callbacks start: right after the previous present (`.smooth`), or
    /// just in time for the target (`.low`). Can change between frames.
    public var latency: FrameLatency = .smooth
    /// What frames have cost lately; learned in both modes, so switching to
    /// low latency starts from real figures.
    package internal(set) var costPredictor = FrameCostPredictor()
    /// The fastest rate the present path has shown it sustains, learned from
    /// each frame's final record and tried again now and then; part of the
    /// link's `DisplayLink.rateCeiling`, learned afresh on another display
    /// or rate limit.
    package internal(set) var presentThroughput = PresentThroughput()
    /// The fastest rate at or below the request the game's work sustains (at
    /// every limit; adaptive measures the whole cost and keeps headroom);
    /// part of the link's `DisplayLink.rateCeiling`.
    package internal(set) var workCeiling = WorkRateCeiling()
    /// How much later than its slot the present path shows a frame, learned
    /// from the platform's reports; the link's `DisplayLink.pathLatency`,
    /// learned afresh on another display.
    package internal(set) var pathLatency = PathLatency()
    /// Whether the present path holds a frame queued, and the plan that empties it.
    package internal(set) var presentQueue = PresentQueue()

    /// Gets each frame to the glass.
    package let presenter: Presenter
    /// What each frame costs the loop's thread (``FrameRecord/cpu``).
    private var cpuMeter = FrameCPUMeter()
    /// The latency the backend was last told of.
    private var latencyInEffect = FrameLatency.smooth
    /// Presented frames not yet handed to the client, oldest first, each with
    /// the ticket of the glass report it awaits (nil: complete).
    private var awaitingGlass: [(record: FrameRecord, ticket: Int?)] = []

    /// How many newer frames may be presented before a frame whose glass report has not
    /// come is handed on with the glass time it has: a compositor reports a frame or two
    /// after it, and a report that never comes must not hold the statistics back.
    public static let glassReportWait = 4

    /// A loop presenting `link`'s frames on `backend`, at the link's preferred range.
    @_spi(Programs) public init(link: DisplayLink, backend: FrameBackend) {
        self.link = link
        self.backend = backend
        presenter = Presenter(backend: backend)
        rateLimit = .range(link.preferredFrameRateRange)
    }

    /// How long a paused loop's default ``FrameLoopClient/idle(_:)`` waits
    /// for an event before looking again.
    public static let idleWait: Nanoseconds = 250_000_000

    /// The clock of the backend, for the game's own measurements.
    @_spi(Programs) public var clock: FrameClock { backend.clock }

    /// Runs until the client or `DisplayLink.invalidate()` ends it, on the
    /// main actor: every callback, present and event poll on the main thread.
    ///
    /// ``FrameLoopClient/framePresented(_:_:)`` receives each record once its
    /// glass time is final: at once where the backend's outcome is, else when
    /// the platform's report arrives (a frame or two later), in frame order.
    @MainActor
    public func run(_ client: FrameLoopClient) {
        defer {
            handOn(to: client, all: true)
            tellBackend(.smooth)
        }
        while !link.isInvalidated {
            guard client.prepareFrame(self), !link.isInvalidated else { return }
            if link.isPaused {
                handOn(to: client, all: true)
                presenter.forget()
                cpuMeter.forget()
                guard client.idle(self) else { return }
                continue
            }
            let (record, ticket, timing) = runOneFrame(client)
            // A frame that waited on a display that stopped answering teaches nothing of the work or path.
            if record.displayWait == nil { learnAfterPresent(record, on: timing) }
            awaitingGlass.append((record, ticket))
            handOn(to: client, all: false)
        }
    }

    /// Completes the waiting records with the glass reports that arrived (a discarded frame's
    /// vblank after its present is only an estimate), then hands on, in order, those that are
    /// complete or waited long enough (with `all`, every one: the loop ends or pauses).
    @MainActor
    private func handOn(to client: FrameLoopClient, all: Bool) {
        for report in backend.glassFeedback() {
            guard let i = awaitingGlass.firstIndex(where: { $0.ticket == report.ticket }) else { continue }
            if let glass = report.glassTime {
                awaitingGlass[i].record.glassTime = glass
                awaitingGlass[i].record.glassSource = .feedback
            } else if awaitingGlass[i].record.glassSource == .vblank {
                awaitingGlass[i].record.glassSource = .estimated
            }
            awaitingGlass[i].ticket = nil
        }
        var handed = 0
        while handed < awaitingGlass.count,
              all || awaitingGlass[handed].ticket == nil || awaitingGlass.count - handed > Self.glassReportWait {
            // Its own report never came (the run ended first): the vblank after
            // its present is a bound, not when it was shown.
            if awaitingGlass[handed].ticket != nil, awaitingGlass[handed].record.glassSource == .vblank {
                awaitingGlass[handed].record.glassSource = .estimated
            }
            if awaitingGlass[handed].record.displayWait == nil { learnAfterGlass(awaitingGlass[handed].record) }
            client.framePresented(awaitingGlass[handed].record, self)
            handed += 1
        }
        awaitingGlass.removeFirst(handed)
    }

    /// One turn of the loop: plan, callback, present, record (with the ticket
    /// of the glass report it awaits, if any, and the display it was planned on).
    @MainActor
    private func runOneFrame(_ client: FrameLoopClient) -> (FrameRecord, Int?, DisplayTiming) {
        let clock = backend.clock
        let timing = backend.currentTiming()
        link.rateCeiling = planRateCeiling(on: timing, at: clock.now)
        pathLatency.follow(timing)
        link.pathLatency = pathLatency.latency(on: timing)
        link.justInTimeLead = latency == .low ? costPredictor.lead ?? 0 : 0
        link.presentLead = backend.vsyncLead(on: timing).map { PresentPlan.lead(on: timing, vsyncLead: $0) } ?? 0
        let flips = presentQueue.flips(planningFrom: presenter.flips(on: timing), at: clock.now)
        let frame = link.nextFrame(now: clock.now, flips: flips, timing: timing)
        tellBackend(latency)
        cpuMeter.begin(backend)
        if latency == .low { presenter.waitForJustInTimeStart(of: frame, lead: costPredictor.lead) }

        let start = clock.now
        cpuMeter.workStarts(backend)
        client.runFrame(frame, self)
        backend.flush()
        let workEnd = clock.now
        cpuMeter.workEnds(backend)

        let (outcome, submitted, waitCPU) = presenter.present(frame, workEndedAt: workEnd,
                                                              tolerance: link.jitterTolerance, cap: frame.cap)
        var record = FrameRecord(
            frame: frame.index, timestamp: frame.timestampNanoseconds, targetTimestamp: frame.targetTimestampNanoseconds,
            presentTime: outcome.tracedAt, delta: frame.deltaNanoseconds, limit: limitInEffect,
            rate: frame.isPaced ? frame.effectiveRate.rate : nil, refreshMode: timing.refreshMode,
            callbackStart: start, workEnd: workEnd, presentSubmit: submitted, skippedFrames: frame.skippedFrames,
            rateReason: frame.rateReason,
            glassTime: outcome.glassSource == .inferred ? outcome.tracedAt : glassEstimate(outcome, of: frame),
            glassSource: outcome.glassSource
        )
        record.variableRefresh = backend.variableRefreshState
        record.pathLatency = frame.pathLatency
        record.cpu = cpuMeter.end(backend, waitCPU: waitCPU)
        record.displayWait = outcome.displayWait
        return (record, outcome.feedbackTicket, timing)
    }

    /// When `frame` reaches the glass, as the present's outcome says: a
    /// platform clock's vblank after the present is the slot the frame went
    /// out for, which this path shows the path's latency later (a report, if
    /// one comes, replaces it); a display's own flip is the truth.
    private func glassEstimate(_ outcome: PresentOutcome, of frame: DisplayLinkFrame) -> Nanoseconds {
        outcome.glassSource == .feedback ? outcome.shownAt : outcome.shownAt + frame.pathLatency
    }

    /// Tells the backend of a latency change, on the loop's thread (see
    /// `FrameBackend.latencyChanged(to:)`).
    private func tellBackend(_ wanted: FrameLatency) {
        guard wanted != latencyInEffect else { return }
        latencyInEffect = wanted
        backend.latencyChanged(to: wanted)
    }
}
