@_spi(Programs) @testable import Cadence
import Testing

/// A display that stops answering (its server stopped, or grabbed by another
/// client) and comes back: the frame that waited for it is a pause, which
/// the statistics count no late frame or hitch for, and the rate is the
/// display's (or the cap's) again at once, every slot after it taken.
@Suite("A frame that waited on a display that stopped answering")
struct DisplayWaitTests {
    /// A simulated 60 Hz display that does not answer for `stall` at the
    /// `at`-th present: it returns that much later and says so, as SDLBackend's does.
    final class StallingBackend: FrameBackend, ScriptedWork {
        let inner: SimulatedBackend
        let virtualClock: VirtualClock
        let at: Int
        let stall: Nanoseconds
        private var presents = 0

        init(at: Int, stall: Nanoseconds) {
            virtualClock = VirtualClock()
            inner = SimulatedBackend(display: SimulatedDisplay(panel: .fixed(hz(60))), clock: virtualClock)
            self.at = at
            self.stall = stall
        }

        var clock: FrameClock { inner.clock }
        func currentTiming() -> DisplayTiming { inner.currentTiming() }
        func doWork(_ duration: Nanoseconds) { inner.doWork(duration) }
        func wait(until deadline: Nanoseconds) { inner.wait(until: deadline) }
        func present() -> PresentOutcome {
            presents += 1
            guard presents == at else { return inner.present() }
            virtualClock.advance(by: stall)
            let outcome = inner.present()
            return PresentOutcome(shownAt: outcome.shownAt, tracedAt: outcome.tracedAt, glassSource: outcome.glassSource,
                                  feedbackTicket: outcome.feedbackTicket, displayWait: stall)
        }
    }

    @Test("10 s without an answer at the 30th frame: one frame says so, none is late, no hitch, and every frame after runs at the rate, one refresh apart",
          arguments: [FrameRateLimit.displayRate, .cap(30), .adaptive])
    @MainActor
    func stalledPresent(limit: FrameRateLimit) {
        let backend = StallingBackend(at: 30, stall: 10_000_000_000)
        let game = ScriptedGame(frames: 150)
        let loop = FrameLoop(link: DisplayLink(), backend: backend)
        loop.rateLimit = limit
        loop.run(game)
        var statistics = FrameStatistics()
        game.records.forEach { statistics.record($0) }
        let waited = game.records.filter { $0.displayWait != nil }
        #expect(waited.map(\.frame) == [game.records[29].frame])
        #expect(statistics.lateCount == 0)
        #expect(statistics.hitchCount == 0)
        let after = Array(game.records.drop { $0.displayWait == nil }.dropFirst())
        #expect(after.count == 120)
        let rate = limit == .cap(30) ? 30.0 : 60.0
        #expect(after.allSatisfy { $0.rate?.hz == rate }, "\(Set(after.map { $0.rate?.hz ?? 0 }))")
        #expect(after.allSatisfy { !["presents", "work"].contains($0.rateReason.name) })
        let period = 1e9 / rate
        #expect(zip(after, after.dropFirst()).allSatisfy { abs(Double($1.targetTimestamp - $0.targetTimestamp) - period) < 1_000 })
    }
}
