import Testing
@testable import Cadence

/// A compositor as the real-time backend meets it, in virtual time: it
/// repaints on its own timer (62.5 Hz, where the system reports 60), and a
/// present either returns at once (after a copy) or when the repaint that
/// shows it is done, late by a seeded jitter of up to 3 ms. The backend's
/// clock is what the real-time one guesses from present returns: a
/// ``VsyncEstimator`` fitted to them, from the reported 60 Hz.
final class GuessingCompositorBackend: FrameBackend, ScriptedWork {
    enum Returns { case atOnce, atRepaint }

    let virtualClock = VirtualClock(start: 1_000_000_000)
    let repaint = VsyncGrid(origin: 3_000_000, rate: FrameRate(numerator: 125, denominator: 2))
    let returns: Returns
    private var estimator = VsyncEstimator(nominal: FrameRate(numerator: 60))
    private var lastReturn: Nanoseconds?
    private var random: SeededGenerator
    /// Every new frame: when it was submitted and when the compositor showed it.
    private(set) var frames: [(submitted: Nanoseconds, shown: Nanoseconds)] = []

    init(returns: Returns, seed: UInt64) {
        self.returns = returns
        random = SeededGenerator(seed: seed)
    }

    var clock: FrameClock { virtualClock }
    func doWork(_ duration: Nanoseconds) { virtualClock.advance(by: duration) }
    func wait(until deadline: Nanoseconds) { virtualClock.sleep(until: deadline) }

    func currentTiming() -> DisplayTiming {
        .fixed(estimator.grid ?? VsyncGrid(origin: lastReturn ?? 0, rate: FrameRate(numerator: 60)))
    }

    func present() -> PresentOutcome {
        let submitted = virtualClock.now
        // The compositor shows a frame at its first repaint after the copy.
        let shown = repaint.time(at: repaint.index(atOrAfter: submitted + 200_000))
        frames.append((submitted, shown))
        let jitter = Nanoseconds.random(in: 0...3_000_000, using: &random)
        let returned = (returns == .atOnce ? submitted + 200_000 : shown) + jitter
        virtualClock.sleep(until: returned)
        lastReturn = returned
        estimator.addPresent(at: returned)
        let grid = estimator.grid ?? VsyncGrid(origin: returned, rate: FrameRate(numerator: 60))
        return PresentOutcome(shownAt: grid.time(at: grid.nearestIndex(to: returned)), tracedAt: returned)
    }
}

@Suite("A cap holds where presents do not block as the model assumes")
struct CapWithoutBlockingPresentsTests {
    /// Runs a cap of `cap` FPS for six virtual seconds with 2 ms of work a frame;
    /// the frames after the first second.
    func run(cap: Double, returns: GuessingCompositorBackend.Returns, seed: UInt64)
        -> [(submitted: Nanoseconds, shown: Nanoseconds)] {
        let backend = GuessingCompositorBackend(returns: returns, seed: seed)
        let loop = FrameLoop(link: DisplayLink(preferred: FrameRateRange(maximum: cap, preferred: cap),
                                               jitterTolerance: 200_000), backend: backend)
        let game = ScriptedGame(frames: Int.max)
        game.work = { _ in 2 * ms }
        game.beforeFrame = { loop, now in if now >= 7_000_000_000 { loop.link.invalidate() } }
        loop.run(game)
        return backend.frames.filter { $0.submitted >= 2_000_000_000 }
    }

    /// Frames a second on the compositor's glass between the first and last frame.
    func glassRate(_ frames: [(submitted: Nanoseconds, shown: Nanoseconds)]) -> Double {
        Double(frames.count - 1) * 1e9 / Double(frames.last!.shown - frames.first!.shown)
    }

    @Test("No two presents closer than the cap's interval less its tolerance; never above the cap on the glass",
          arguments: [30.0, 45.0, 20.0], [GuessingCompositorBackend.Returns.atOnce, .atRepaint])
    func capHolds(cap: Double, returns: GuessingCompositorBackend.Returns) {
        for seed: UInt64 in 1...4 {
            let frames = run(cap: cap, returns: returns, seed: seed)
            let shortest = 1e9 / cap - 500_000
            for (a, b) in zip(frames, frames.dropFirst()) {
                #expect(Double(b.submitted - a.submitted) >= shortest.rounded(.down),
                        "cap \(cap), seed \(seed): presents \(b.submitted - a.submitted) ns apart")
            }
            #expect(glassRate(frames) <= cap, "cap \(cap), seed \(seed): \(glassRate(frames)) FPS on the glass")
        }
    }

    /// Where presents return on the compositor's repaints, the clock measured
    /// from them is the compositor's 62.5 Hz, and the rule picks the highest
    /// 62.5/n at or below the cap: 30 → 62.5/3, 45 → 62.5/2, 20 → 62.5/4;
    /// nine in ten frames reach the glass n repaints after the previous one.
    @Test("On the compositor's measured clock: the highest even division at or below the cap",
          arguments: [(30.0, 3), (45.0, 2), (20.0, 4)])
    func evenDivisionOfTheMeasuredClock(cap: Double, repaints: Int) {
        for seed: UInt64 in 1...4 {
            let frames = run(cap: cap, returns: .atRepaint, seed: seed)
            let expected = 62.5 / Double(repaints)
            #expect(abs(glassRate(frames) - expected) <= expected * 0.02,
                    "cap \(cap), seed \(seed): \(glassRate(frames)) FPS, expected \(expected)")
            let onStride = zip(frames, frames.dropFirst()).filter { $0.1.shown - $0.0.shown == 16_000_000 * Nanoseconds(repaints) }
            #expect(Double(onStride.count) >= 0.9 * Double(frames.count - 1),
                    "cap \(cap), seed \(seed): \(onStride.count) of \(frames.count - 1) intervals at \(repaints) repaints")
        }
    }
}
