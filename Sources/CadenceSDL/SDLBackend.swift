import Cadence

/// The frame loop's real-time backend: an SDL renderer, the monotonic clock,
/// and an estimate of where the display's vblanks are.
///
/// It reports what the display can do honestly:
/// - vsync on, and presents really wait for the vblank: `.fixed`, on the vblank
///   grid estimated from present-return times (SDL's integer refresh rate is
///   refined from the measured period);
/// - variable refresh in effect (per the detector's decision): `.variable`;
/// - vsync off, or vsync "on" but presents return at once (Xvfb, the offscreen
///   driver, some compositors): `.unsynced`, paced by the timer alone, with
///   ``timingNote`` saying why.
public final class SDLBackend: FrameBackend, ScriptedWork {
    /// The renderer presenting the frames.
    public let renderer: Renderer
    /// Wall-clock time, monotonic.
    public let clock: FrameClock
    /// Variable refresh range in effect, set from the detector's decision; nil for none.
    public var variableRefresh: (minimum: FrameRate, maximum: FrameRate)?
    /// Why the timing is what it is, for the overlay (nil when vsync works as asked).
    public private(set) var timingNote: String?

    private let waitUntil: (Nanoseconds) -> Void
    private var reportedRate: FrameRate?
    private var estimator: VsyncEstimator?
    private var blockingTimes: [Nanoseconds] = []
    private var presentsBlock = true
    private var lastReturn: Nanoseconds?
    private var modeChangedAt: Nanoseconds = 0

    /// Whether low latency asks for the real-time scheduling class (see
    /// ``latencyChanged(to:)``); read when the loop next switches to low latency.
    public var raisesPriorityForLowLatency = true
    /// Whether this backend put the loop's thread in the real-time class, as
    /// the overlay reports it.
    public private(set) var raisedPriority = false

    /// The display link's ``DisplayLink/jitterTolerance`` for this backend:
    /// present returns, and so the times frames are taken as shown, jitter by
    /// up to a few hundred microseconds around the vblank, so a slot closer
    /// than this to the reference time counts as passed.
    public static let jitterTolerance: Nanoseconds = 200_000

    /// How many presents are watched before deciding whether vsync really blocks.
    static let blockingSampleCount = 16

    /// A backend for `renderer`.
    ///
    /// - Parameters:
    ///   - refreshHz: the display mode's rate from SDL; 0 when unknown.
    ///   - wait: how to wait for a deadline (a precise sleeper in a game).
    public init(renderer: Renderer, clock: FrameClock, refreshHz: Int,
                wait: @escaping (Nanoseconds) -> Void) {
        self.renderer = renderer
        self.clock = clock
        self.waitUntil = wait
        displayModeChanged(refreshHz: refreshHz)
    }

    /// Starts over after the display or its mode changed (or vsync was toggled):
    /// the old vblank estimate no longer holds.
    public func displayModeChanged(refreshHz: Int) {
        reportedRate = refreshHz > 0 ? FrameRate(hz: Double(refreshHz)) : nil
        estimator = reportedRate.map { VsyncEstimator(nominal: $0) }
        blockingTimes.removeAll()
        presentsBlock = true
        modeChangedAt = clock.now
    }

    /// What the display can do now.
    public func currentTiming() -> DisplayTiming {
        if let vrr = variableRefresh, renderer.vsync != .off {
            timingNote = nil
            return .variable(minimum: vrr.minimum, maximum: vrr.maximum)
        }
        guard renderer.vsync != .off else {
            timingNote = "paced by timer"
            return .unsynced(reported: reportedRate)
        }
        guard let nominal = reportedRate else {
            timingNote = "refresh rate unknown: paced by timer"
            return .unsynced(reported: nil)
        }
        guard presentsBlock else {
            timingNote = "presents do not wait for vblank: paced by timer"
            return .unsynced(reported: estimator?.measuredRate ?? nominal)
        }
        timingNote = nil
        if let grid = estimator?.grid { return .fixed(grid) }
        // Until the estimate exists, a grid at the nominal rate through the
        // last present (or the mode change): the same grid however often asked.
        return .fixed(VsyncGrid(origin: lastReturn ?? modeChangedAt, rate: nominal))
    }

    /// Burns `duration` of real CPU time: scripted game work.
    public func doWork(_ duration: Nanoseconds) {
        let end = clock.now + duration
        var sink = 0
        while clock.now < end { sink &+= 1 }
        _ = sink
    }

    /// Waits for `deadline` with the injected waiter.
    public func wait(until deadline: Nanoseconds) {
        waitUntil(deadline)
    }

    /// With low latency, asks for the real-time scheduling class for the
    /// loop's thread (see ``RealTimeScheduling``) where the process may have
    /// one and ``raisesPriorityForLowLatency``; back in the normal class with
    /// smooth latency. A thread already in a real-time class is left as it is.
    ///
    /// A just-in-time frame starts only its predicted cost and a safety before
    /// its target, so losing the core for a few milliseconds in the middle of
    /// it (the kernel's own threads do that on a busy machine) makes it late;
    /// in the real-time class nothing in the normal class can take the core
    /// from it. Measured with `Scripts/bench latency --explore` on a shared
    /// 2-core machine: several times fewer late frames than in the normal class.
    public func latencyChanged(to latency: FrameLatency) {
        if latency == .low, raisesPriorityForLowLatency, !RealTimeScheduling.isInEffect {
            raisedPriority = RealTimeScheduling.request()
        } else if latency == .smooth, raisedPriority {
            RealTimeScheduling.release()
            raisedPriority = false
        }
    }

    /// Blocks in SDL's event queue until an event arrives or `timeout` passes.
    public func waitForEvents(timeout: Nanoseconds) {
        EventPump.wait(timeout: timeout)
    }

    /// Presents; the frame is taken as shown at the estimated vblank nearest to
    /// the moment present returned (or at that moment without vsync).
    public func present() -> PresentOutcome {
        let before = clock.now
        renderer.present()
        let returned = clock.now
        lastReturn = returned
        guard renderer.vsync != .off, variableRefresh == nil, var estimator else {
            return PresentOutcome(shownAt: returned, tracedAt: returned)
        }
        estimator.addPresent(at: returned)
        self.estimator = estimator
        noteBlocking(returned - before, period: estimator.nominal.period)
        let shown = presentsBlock ? estimator.grid.map { $0.time(at: $0.nearestIndex(to: returned)) } ?? returned : returned
        return PresentOutcome(shownAt: shown, tracedAt: returned)
    }

    /// Decides from the first presents whether vsync really blocks: a present
    /// that waits for the vblank takes a good part of a refresh on average.
    private func noteBlocking(_ blocked: Nanoseconds, period: Nanoseconds) {
        guard blockingTimes.count < Self.blockingSampleCount else { return }
        blockingTimes.append(blocked)
        if blockingTimes.count == Self.blockingSampleCount {
            let sorted = blockingTimes.sorted()
            presentsBlock = sorted[sorted.count / 2] > period / 8
        }
    }
}
