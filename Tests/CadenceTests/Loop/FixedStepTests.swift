import Testing
@_spi(Programs) @testable import Cadence

/// A game with one body moving at constant speed, simulated in fixed steps
/// and drawn interpolated, as the template does; it keeps what each frame did.
private final class SteppedGame: FrameLoopClient {
    struct Drawn {
        let target: Nanoseconds
        let delta: Nanoseconds
        let stepsRun: Int64
        let stepsDropped: Int64
        let stepsThisFrame: Int
        let position: Double
    }

    /// Pixels per second.
    static let speed = 240.0
    var simulation: FixedStep
    var previous = 0.0
    var current = 0.0
    var drawn: [Drawn] = []
    /// Whether to stop: given the frames drawn so far.
    var isDone: ([Drawn]) -> Bool
    /// Work for a frame, by callback index.
    var work: (Int) -> Nanoseconds = { _ in 2 * ms }
    var beforeFrame: (FrameLoop, Nanoseconds) -> Void = { _, _ in }

    init(_ simulation: FixedStep, until isDone: @escaping ([Drawn]) -> Bool) {
        self.simulation = simulation
        self.isDone = isDone
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        beforeFrame(loop, loop.clock.now)
        return !isDone(drawn)
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        let steps = simulation.advance(to: frame)
        for _ in 0..<steps {
            previous = current
            current += Self.speed * simulation.step
        }
        let position = previous + (current - previous) * simulation.alpha
        drawn.append(Drawn(target: frame.targetTimestampNanoseconds, delta: frame.deltaNanoseconds,
                           stepsRun: simulation.stepsRun, stepsDropped: simulation.stepsDropped,
                           stepsThisFrame: steps, position: position))
        loop.doWork(work(frame.index))
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {}

    func idle(_ loop: FrameLoop) -> Bool {
        loop.backend.wait(until: loop.clock.now + 100 * ms)
        return true
    }
}

/// Runs `game` on `display` at `fps` (0 = the display's rate).
@MainActor
private func run(_ game: SteppedGame, on display: SimulatedDisplay, fps: Double) {
    FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: fps)), backend: SimulatedBackend(display: display))
        .run(game)
}

/// Stops at the first frame whose target is 2 s (less a microsecond of
/// rounding in the rate's period) after the first one.
private func twoSecondsOfGlass(_ drawn: [SteppedGame.Drawn]) -> Bool {
    guard let first = drawn.first, let last = drawn.last else { return false }
    return last.target - first.target >= 2_000 * ms - 1_000
}

@MainActor
@Suite("Fixed-step simulation to glass time")
struct FixedStepTests {
    /// 7 ms steps: 2 s of glass holds floor(2000 / 7) = 285 whole steps, and
    /// the step in progress at the first frame makes 286 updates. Any span
    /// from 1995 ms up to 2002 ms gives the same count, so a nanosecond of
    /// rounding in a frame period cannot change it.
    static let step: Nanoseconds = 7 * ms

    /// After every frame, the updates run so far are the steps whose start the
    /// glass has reached (with 1 µs for vblanks rounded to the nanosecond):
    /// floor((target − first target + 1 µs) / step) + 1.
    private func expectStepsFollowGlassTime(_ drawn: [SteppedGame.Drawn], span: Range<Nanoseconds>,
                                            updates: Int64, sourceLocation: SourceLocation = #_sourceLocation) {
        let first = drawn[0].target
        for frame in drawn {
            #expect(frame.stepsRun + frame.stepsDropped == (frame.target - first + 1_000) / Self.step + 1,
                    "at \(frame.target - first) ns", sourceLocation: sourceLocation)
        }
        let last = drawn.last!
        #expect(span.contains(last.target - first), sourceLocation: sourceLocation)
        #expect(last.stepsRun == updates, sourceLocation: sourceLocation)
        #expect(last.stepsDropped == 0, sourceLocation: sourceLocation)
    }

    @Test("The same 2 s of glass run 286 updates of 7 ms at 30, 60 and 144 Hz", arguments: [30.0, 60.0, 144.0])
    func updatesDependOnGlassTimeOnly(hz rate: Double) {
        let game = SteppedGame(FixedStep(stepNanoseconds: Self.step), until: twoSecondsOfGlass)
        run(game, on: SimulatedDisplay(panel: .fixed(hz(rate))), fps: 0)
        expectStepsFollowGlassTime(game.drawn, span: 1_995 * ms..<2_002 * ms, updates: 286)
        // Sanity: the frame rates really differ (about 2 s × rate frames).
        #expect(abs(game.drawn.count - Int(2 * rate) - 1) <= 1)
    }

    /// The 60 FPS slots after the changes fall on odd 120 Hz vblanks, so the
    /// run ends on the first slot past 2 s, 2008.3 ms in: floor(2008.3 / 7) + 1
    /// = 287 updates (any span from 2002 ms up to 2009 ms gives 287).
    @Test("Cap changes 120 → 40 → 60 FPS on 120 Hz and a 100 ms hitch: updates follow glass time")
    func updatesAcrossCapChangesAndAHitch() {
        let game = SteppedGame(FixedStep(stepNanoseconds: Self.step, maximumStepsPerFrame: 32),
                               until: twoSecondsOfGlass)
        game.beforeFrame = { loop, now in
            loop.link.preferredFramesPerSecond = now < 500 * ms ? 120 : now < 1_200 * ms ? 40 : 60
        }
        game.work = { index in index == 30 ? 100 * ms : 2 * ms }
        run(game, on: SimulatedDisplay(panel: .fixed(hz(120))), fps: 120)
        expectStepsFollowGlassTime(game.drawn, span: 2_002 * ms..<2_009 * ms, updates: 287)
        // The hitch skipped frames, and the frame after it caught up over
        // 100 ms of steps at once (within this run's bound of 32).
        #expect(game.drawn.map(\.stepsThisFrame).max()! >= 100 / 7)
        let intervals = zip(game.drawn, game.drawn.dropFirst()).map { $1.target - $0.target }
        #expect(Set(intervals.map { ($0 + ms / 2) / ms }).isSuperset(of: [8, 25, 17]))
    }

    /// The body moves 240 px/s; drawn between its two newest states, it is
    /// exactly where 240 px/s × (target − first target) puts it, whatever the
    /// frame rate, the rate's rounding, or the update rate's (60/s is 16.666… ms).
    @Test("Interpolated positions lie on the line speed × glass time",
          arguments: [SimulatedDisplay.Panel.fixed(hz(144)), .fixed(hz(59.94)), .fixed(hz(30)),
                      .variable(minimum: hz(48), maximum: hz(144))])
    func interpolatedPositionsAreExact(panel: SimulatedDisplay.Panel) {
        let game = SteppedGame(FixedStep(stepsPerSecond: 60), until: twoSecondsOfGlass)
        run(game, on: SimulatedDisplay(panel: panel, fullscreen: true), fps: 78)
        let first = game.drawn[0].target
        #expect(game.drawn.count > 50)
        for frame in game.drawn {
            let expected = SteppedGame.speed * Double(frame.target - first) / 1e9
            #expect(abs(frame.position - expected) < 1e-9, "at \(frame.target - first) ns")
        }
    }

    @Test("Interpolated positions stay on the line across a cap change")
    func interpolatedPositionsAcrossACapChange() {
        let game = SteppedGame(FixedStep(stepsPerSecond: 50), until: twoSecondsOfGlass)
        game.beforeFrame = { loop, now in loop.link.preferredFramesPerSecond = now < 1_000 * ms ? 144 : 48 }
        run(game, on: SimulatedDisplay(panel: .fixed(hz(144))), fps: 144)
        let first = game.drawn[0].target
        let intervals = Set(zip(game.drawn, game.drawn.dropFirst()).map { ($1.target - $0.target + ms / 2) / ms })
        #expect(intervals == [7, 21])
        for frame in game.drawn {
            #expect(abs(frame.position - SteppedGame.speed * Double(frame.target - first) / 1e9) < 1e-9)
        }
    }

    /// A 2 s hitch at 60 Hz: the link clamps the delta to its 1.5 s maximum,
    /// 1.5 s × 60 = 90 steps come due, 5 run and 85 are dropped; the half
    /// second beyond the clamp was not lived and is not simulated.
    @Test("After a 2 s hitch one frame runs at most 5 steps and drops the other 85")
    func catchUpIsBounded() {
        let game = SteppedGame(FixedStep(stepsPerSecond: 60, maximumStepsPerFrame: 5)) { $0.count >= 200 }
        game.work = { index in index == 60 ? 2_000 * ms : 2 * ms }
        run(game, on: SimulatedDisplay(panel: .fixed(hz(60))), fps: 60)
        let steps = game.drawn.map(\.stepsThisFrame)
        #expect(steps.max() == 5)
        #expect(steps[61] == 5)
        #expect(game.drawn[61].stepsDropped == 85)
        #expect(game.drawn[60].stepsDropped == 0)
        // Before and after, one update per 60 Hz frame.
        #expect(steps[1..<61].allSatisfy { $0 == 1 } && steps[62...].allSatisfy { $0 == 1 })
        #expect(game.drawn.last!.stepsDropped == 85)
    }

    @Test("A pause is not simulated: no catch-up and nothing dropped on resume")
    func pauseIsSkipped() {
        let game = SteppedGame(FixedStep(stepsPerSecond: 60, maximumStepsPerFrame: 5)) { $0.count >= 120 }
        game.beforeFrame = { loop, now in loop.link.isPaused = (1_000 * ms..<4_000 * ms).contains(now) }
        run(game, on: SimulatedDisplay(panel: .fixed(hz(60))), fps: 60)
        let steps = game.drawn.map(\.stepsThisFrame)
        #expect(steps.dropFirst().allSatisfy { $0 == 1 })
        #expect(game.drawn.last!.stepsDropped == 0)
        let gaps = zip(game.drawn, game.drawn.dropFirst()).map { $1.target - $0.target }
        #expect(gaps.max()! > 2_000 * ms)
        // The drawn line continues where it left off: each frame moves the
        // body by its delta, which after the pause is one frame interval.
        for (a, b) in zip(game.drawn, game.drawn.dropFirst()) {
            #expect(abs(b.position - a.position - SteppedGame.speed * Double(b.delta) / 1e9) < 1e-9)
        }
        #expect(game.drawn.map(\.delta).max()! < 17 * ms)
    }

    @Test("Steps come due from the origin in exact integer time, with no rounding drift")
    func noDrift() {
        var simulation = FixedStep(stepsPerSecond: 60, maximumStepsPerFrame: 1_000)
        #expect(simulation.advance(toTargetNanoseconds: 5_000) == 1)
        // An hour of 144 Hz frames later (rounded periods, like a real grid):
        // 60 × 3600 whole steps, plus the first.
        var run = 1
        for k in Int64(1)...(144 * 3_600) {
            run += simulation.advance(toTargetNanoseconds: 5_000 + (k * 1_000_000_000 + 72) / 144)
        }
        #expect(run == 60 * 3_600 + 1)
        #expect(simulation.alpha == 0)
        #expect(simulation.step == 1.0 / 60)
    }
}
