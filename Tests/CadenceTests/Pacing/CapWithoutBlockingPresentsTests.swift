import Testing
@_spi(Programs) @testable import Cadence

/// A compositor as the real-time backend meets it, in virtual time: it
/// repaints on its own timer (62.5 Hz, where the system reports 60, or KWin's
/// virtual output's 60), and a present either returns at once (after a copy),
/// when the repaint that shows it is done, or, as SDL's Wayland driver does
/// with vsync, once the repaint that showed the previous frame is done (it
/// waits for that frame's callback, then commits), late by a seeded jitter of
/// up to 3 ms. The backend's
/// clock is what the real-time one guesses from present returns: a
/// ``VsyncEstimator`` fitted to them, from the reported 60 Hz, unless its
/// ``PresentBlockingCheck`` finds that presents do not wait (then the timer
/// paces them).
final class GuessingCompositorBackend: FrameBackend, ScriptedWork {
    enum Returns { case atOnce, atRepaint, afterPreviousFrame }

    lazy var virtualClock = VirtualClock(start: started)
    let repaint: VsyncGrid
    let returns: Returns
    private var estimator = VsyncEstimator(nominal: FrameRate(numerator: 60))
    private var blocking: PresentBlockingCheck
    /// When the backend started: its grid's origin until presents that wait give one.
    private let started: Nanoseconds = 1_000_000_000
    private var random: SeededGenerator
    /// Every new frame: when it was submitted and when the compositor showed it.
    private(set) var frames: [(submitted: Nanoseconds, shown: Nanoseconds)] = []

    init(returns: Returns, seed: UInt64, repaintRate: FrameRate = FrameRate(numerator: 125, denominator: 2)) {
        self.returns = returns
        repaint = VsyncGrid(origin: 3_000_000, rate: repaintRate)
        blocking = PresentBlockingCheck(throttledByCompositor: returns == .afterPreviousFrame)
        random = SeededGenerator(seed: seed)
    }

    var clock: FrameClock { virtualClock }
    func doWork(_ duration: Nanoseconds) { virtualClock.advance(by: duration) }
    func wait(until deadline: Nanoseconds) { virtualClock.sleep(until: deadline) }

    func currentTiming() -> DisplayTiming {
        guard blocking.presentsBlock else { return .unsynced(reported: FrameRate(numerator: 60)) }
        return .fixed(estimator.grid ?? VsyncGrid(origin: started, rate: FrameRate(numerator: 60)))
    }

    func present() -> PresentOutcome {
        let called = virtualClock.now
        let jitter = Nanoseconds.random(in: 0...3_000_000, using: &random)
        // SDL's Wayland driver commits once the previous frame's repaint is done.
        let submitted = returns == .afterPreviousFrame ? max(called, (frames.last?.shown ?? 0) + jitter) : called
        // The compositor shows a frame at its first repaint after the copy.
        let repainted = repaint.time(at: repaint.index(atOrAfter: submitted + 200_000))
        frames.append((submitted, repainted))
        let returned = switch returns {
        case .atOnce: submitted + 200_000 + jitter
        case .atRepaint: repainted + jitter
        case .afterPreviousFrame: submitted + 200_000
        }
        virtualClock.sleep(until: returned)
        estimator.addPresent(submittedAt: called, returnedAt: returned)
        blocking.note(blocked: returned - called, period: FrameRate(numerator: 60).period)
        // As the real-time backend takes it: a present that waited returned on
        // the vblank that showed it (throttled, the one that showed the frame
        // before: its own is the next); one that did not is shown at the next.
        guard case .fixed(let grid) = currentTiming() else { return PresentOutcome(shownAt: returned, tracedAt: returned) }
        let index = !estimator.waitedForDisplay(blocked: returned - called) ? grid.index(atOrAfter: returned)
            : grid.nearestIndex(to: returned) + (blocking.throttledByCompositor ? 1 : 0)
        let estimated = grid.time(at: index)
        return PresentOutcome(shownAt: estimated, tracedAt: returned)
    }
}

@MainActor
@Suite("A cap holds where presents do not block as the model assumes")
struct CapWithoutBlockingPresentsTests {
    /// Runs a cap of `cap` FPS for six virtual seconds with 2 ms of work a frame;
    /// the frames after the first second.
    func run(cap: Double, returns: GuessingCompositorBackend.Returns, seed: UInt64,
             repaintRate: FrameRate = FrameRate(numerator: 125, denominator: 2))
        -> [(submitted: Nanoseconds, shown: Nanoseconds)] {
        let backend = GuessingCompositorBackend(returns: returns, seed: seed, repaintRate: repaintRate)
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
            // On the glass, frames presented at most `cap` a second: the first
            // and last of the window each land on the compositor's next repaint,
            // so the span they show can be one repaint (16 ms) short of the presents'.
            let presented = Double(frames.last!.submitted - frames.first!.submitted)
            let ceiling = Double(frames.count - 1) * 1e9 / (presented - 16_000_000)
            #expect(Double(frames.count - 1) * 1e9 / presented <= cap, "cap \(cap), seed \(seed): presents above the cap")
            #expect(glassRate(frames) <= min(ceiling, cap * 1.005), "cap \(cap), seed \(seed): \(glassRate(frames)) FPS on the glass")
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

    /// SDL's Wayland driver with vsync waits for the previous frame's callback
    /// and then commits: at a cap below the compositor's rate that callback
    /// came long before, so the present returns at once, at a moment the loop
    /// chose, and says nothing of the repaints (KWin's virtual output, 60 Hz,
    /// no presentation feedback). A cap of 30 or 45 still shows 30 frames a
    /// second, two repaints apart; uncapped, where each present waits, 60.
    @Test("Presents that wait only for the previous frame: the cap's even division of the compositor's 60 Hz",
          arguments: [(30.0, 2), (45.0, 2), (60.0, 1)])
    func presentsThatWaitForThePreviousFrame(cap: Double, repaints: Int) {
        for seed: UInt64 in 1...4 {
            let frames = run(cap: cap, returns: .afterPreviousFrame, seed: seed, repaintRate: FrameRate(numerator: 60))
            let expected = 60.0 / Double(repaints)
            #expect(glassRate(frames) <= expected * 1.001 && glassRate(frames) >= expected * 0.98,
                    "cap \(cap), seed \(seed): \(glassRate(frames)) FPS, expected \(expected)")
            let stride = FrameRate(numerator: 60).period * Nanoseconds(repaints)
            let onStride = zip(frames, frames.dropFirst()).filter { abs($0.1.shown - $0.0.shown - stride) <= 1 }
            #expect(Double(onStride.count) >= 0.9 * Double(frames.count - 1),
                    "cap \(cap), seed \(seed): \(onStride.count) of \(frames.count - 1) intervals at \(repaints) repaints")
        }
    }
}
