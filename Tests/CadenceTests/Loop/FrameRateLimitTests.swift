import Testing
@_spi(Programs) @testable import Cadence

/// A client that writes only `runFrame`, leaning on every default; it ends the
/// loop itself after `frames` frames.
private final class MinimalGame: FrameLoopClient {
    var targets: [Nanoseconds] = []
    let frames: Int
    var onFrame: (FrameLoop, Int) -> Void = { _, _ in }

    init(frames: Int) { self.frames = frames }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        targets.append(frame.targetTimestampNanoseconds)
        onFrame(loop, targets.count)
        if targets.count == frames { loop.link.invalidate() }
    }
}

private func loop(on panel: SimulatedDisplay.Panel) -> FrameLoop {
    FrameLoop(link: DisplayLink(), backend: SimulatedBackend(display: SimulatedDisplay(panel: panel)))
}

@MainActor
@Suite("The rate setting and the client's defaults")
struct FrameRateLimitTests {
    @Test("Each setting asks the link for its range; a cap N is 0…N preferring N")
    func ranges() {
        #expect(FrameRateLimit.displayRate.frameRateRange == FrameRateRange(minimum: 0, maximum: 0, preferred: 0))
        #expect(FrameRateLimit.cap(72).frameRateRange == FrameRateRange(minimum: 0, maximum: 72, preferred: 72))
        let range = FrameRateRange(minimum: 48, maximum: 90, preferred: 60)
        #expect(FrameRateLimit.range(range).frameRateRange == range)
        #expect(FrameRateLimit.adaptive.frameRateRange == .displayRate, "the work lowers it by the link's ceiling")
        #expect(FrameRateLimit.uncapped.frameRateRange == .displayRate, "where vsync stays on, the display's rate")
    }

    @Test("Setting the limit sets the link's range once; the game may still set the link itself")
    func loopAppliesTheLimit() {
        let loop = loop(on: .fixed(hz(120)))
        #expect(loop.rateLimit == .range(.displayRate))
        loop.rateLimit = .cap(40)
        #expect(loop.link.preferredFrameRateRange == FrameRateRange(minimum: 0, maximum: 40, preferred: 40))
        #expect(loop.limitInEffect == .cap(40) && !loop.isAdaptive)
        let game = MinimalGame(frames: 30)
        game.onFrame = { loop, count in if count == 10 { loop.link.preferredFramesPerSecond = 60 } }
        loop.run(game)
        // 120 Hz: 40 FPS is every third vblank (25 ms), 60 every second (16.7 ms).
        let gaps = zip(game.targets, game.targets.dropFirst()).map { ($1 - $0 + ms / 2) / ms }
        #expect(gaps.prefix(9).allSatisfy { $0 == 25 })
        #expect(gaps.suffix(15).allSatisfy { $0 == 17 })
        #expect(loop.rateLimit == .cap(40), "a direct change to the link leaves the setting as it was")
        #expect(loop.limitInEffect == .range(FrameRateRange(fps: 60)), "what the link runs by, the records carry")
    }

    @Test("Adaptive: the loop runs the controller; 40 ms frames on 60 Hz settle at 20 FPS")
    func loopRunsTheAdaptiveController() {
        let loop = loop(on: .fixed(hz(60)))
        loop.rateLimit = .adaptive
        #expect(loop.isAdaptive && loop.limitInEffect == .adaptive)
        let game = MinimalGame(frames: 120)
        game.onFrame = { loop, _ in loop.doWork(40 * ms) }
        loop.run(game)
        // Work of 40 ms fits 60/3 = 20 FPS (50 ms) with margin, not 30 (33 ms).
        let gaps = zip(game.targets, game.targets.dropFirst()).map { ($1 - $0 + ms / 2) / ms }
        #expect(gaps.suffix(40).allSatisfy { $0 == 50 })
        // The game's request (the display's rate) reads back unchanged; the work holds the rate.
        #expect(loop.link.preferredFrameRateRange == .displayRate)
        #expect(loop.link.rateCeiling?.rate == FrameRate(numerator: 20))
        #expect(loop.link.rateCeiling?.reason == .work(cost: 40 * ms))
    }

    @Test("The default idle waits a quarter second per turn while paused, then frames resume")
    func defaultIdle() {
        let loop = loop(on: .fixed(hz(60)))
        let game = MinimalGame(frames: 20)
        var pausedAt: Nanoseconds = 0
        game.onFrame = { loop, count in
            if count == 10 {
                loop.link.isPaused = true
                pausedAt = loop.clock.now
            }
        }
        final class Resumer: FrameLoopClient {
            let inner: MinimalGame
            var resumeAfter: Nanoseconds
            var prepared = 0
            init(_ inner: MinimalGame, resumeAfter: Nanoseconds) { self.inner = inner; self.resumeAfter = resumeAfter }
            func prepareFrame(_ loop: FrameLoop) -> Bool {
                prepared += 1
                if loop.link.isPaused && loop.clock.now >= resumeAfter { loop.link.isPaused = false }
                return true
            }
            func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) { inner.runFrame(frame, loop) }
        }
        let client = Resumer(game, resumeAfter: 1_000 * ms)
        loop.run(client)
        #expect(game.targets.count == 20)
        let gap = game.targets[10] - game.targets[9]
        // Paused at about 167 ms; resumed at the first quarter-second turn past 1 s.
        #expect(pausedAt < 200 * ms)
        #expect((1_000 * ms...1_200 * ms).contains(game.targets[10]), "gap \(gap)")
        #expect(client.prepared == 20 + (game.targets[10] - pausedAt) / FrameLoop.idleWait, "one prepare per idle turn")
    }
}
