@_spi(Programs) import Cadence

/// When the loop's thread asks for the real-time class (see
/// `RealTimeScheduling`), and what it was granted.
///
/// A paced loop asks for it for its whole run (``GameWindow/run(_:)`` holds it
/// around the loop): it sleeps most of each frame, so the class costs other
/// programs nothing but makes its wake-ups punctual, which is what lets the
/// `PreciseSleeper` spin little. An uncapped loop never sleeps, so it runs in
/// the normal class, where it cannot hold a core from the display server.
/// Low latency asks for the class on its own too (a just-in-time frame has
/// no slack in which to lose the core).
@_spi(Programs) public final class LoopScheduling {
    /// Whether a paced loop asks for the real-time class for its run.
    public var pacesInRealTime = true
    /// Whether low latency asks for the real-time class (see `SDLBackend.latencyChanged(to:)`).
    public var raisesForLowLatency = true
    /// How the loop's thread is scheduled now, as the last request left it.
    @_spi(Programs) public private(set) var grant = RealTimeScheduling.Grant.normal
    private var running = false
    private var uncapped = false
    private var lowLatency = false

    /// The class in words for the overlay: `fifo (kernel)`, `normal`, or
    /// `normal (demoted: 100 ms without sleeping)` after the guard stepped in.
    public var words: String {
        RealTimeScheduling.wasDemoted && grant != .normal ? "normal (demoted: 100 ms without sleeping)" : grant.words
    }

    /// Runs `loop` (the frame loop, on the calling thread) in the class the
    /// loop's state wants, and the thread back in the normal class after.
    func during(_ loop: () -> Void) {
        running = true
        update()
        loop()
        running = false
        update()
    }

    func latencyChanged(to latency: FrameLatency) {
        lowLatency = latency == .low
        update()
    }

    func uncappedChanged(to uncapped: Bool) {
        self.uncapped = uncapped
        update()
    }

    /// Asks for the class or leaves it, as the loop's state now wants.
    private func update() {
        let wanted = (running && pacesInRealTime && !uncapped) || (lowLatency && raisesForLowLatency)
        if wanted, grant == .normal, !RealTimeScheduling.isInEffect {
            grant = RealTimeScheduling.request()
        } else if !wanted, grant != .normal {
            RealTimeScheduling.release()
            grant = .normal
        }
    }
}
