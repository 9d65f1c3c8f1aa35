import Testing
@_spi(Programs) @testable import Cadence

/// The uncapped limit, checked against what "nothing paces" means: vsync off,
/// each frame presented the moment its work ends and the next begun at once,
/// a target at the callback's start (never early, with nothing to be late
/// for), deltas the differences of targets, which are then the game's real
/// frame times.
@MainActor
@Suite("Uncapped: vsync off, no cap")
struct UncappedTests {
    /// Work of 3 to 9 ms, varying from frame to frame.
    private static func work(_ index: Int) -> Nanoseconds { (3 + Nanoseconds(index * 5 % 7)) * ms + 123_457 }

    @Test("Frames come as fast as the work allows: no wait anywhere, targets at the callback's start, no frame late")
    func framesAsFastAsTheWork() {
        let display = SimulatedDisplay(panel: .fixed(hz(60)))
        let loop = FrameLoop(link: DisplayLink(), backend: SimulatedBackend(display: display))
        loop.rateLimit = .uncapped
        #expect(!display.vsync, "the backend turned vsync off")
        let game = ScriptedGame(frames: 200)
        game.work = Self.work
        loop.run(game)

        var statistics = FrameStatistics()
        for (frame, record) in zip(game.frames, game.records) {
            #expect(!frame.isPaced && !record.isPaced && record.pacedHz == 0, "nothing paced it")
            #expect(frame.targetTimestampNanoseconds == record.callbackStart, "the target is the callback's start")
            #expect(record.presentSubmit == record.workEnd, "presented the moment the work ended")
            #expect(record.presentTime == record.workEnd, "with no vsync it is on the glass then")
            #expect(record.presentTime - record.callbackStart == Self.work(frame.index))
            #expect(record.presentTime >= frame.targetTimestampNanoseconds, "never early")
            #expect(!record.isLate())
            #expect(frame.skippedFrames == 0)
            statistics.record(record)
        }
        for (previous, (frame, record)) in zip(game.records, zip(game.frames, game.records).dropFirst()) {
            #expect(record.callbackStart == previous.presentTime, "no sleep between frames")
            #expect(frame.deltaNanoseconds == frame.targetTimestampNanoseconds - previous.targetTimestamp)
            #expect(frame.deltaNanoseconds == Self.work(frame.index - 1), "the delta is the previous frame's time")
            #expect(frame.timestampNanoseconds == previous.presentTime, "timestamp: when the previous frame was shown")
        }
        // The first delta is one display interval, as after a pause: 1/60 s.
        #expect(abs(game.frames[0].deltaNanoseconds - 1_000_000_000 / 60) <= 1)
        #expect(abs(game.frames[0].duration - 1.0 / 60) < 1e-9, "duration stays the display's interval")
        let summary = statistics.runSummary
        #expect(summary.lateFrames == 0 && summary.hitchRatio == 0)
        // 200 frames of 3–9 ms average about 6 ms: far above 60 FPS.
        #expect((summary.achievedFPS ?? 0) > 140)
    }

    @Test("Another limit gives vsync back and paces again on the display's grid")
    func anotherLimitRestoresVsync() {
        let display = SimulatedDisplay(panel: .fixed(hz(60)))
        let loop = FrameLoop(link: DisplayLink(), backend: SimulatedBackend(display: display))
        loop.rateLimit = .uncapped
        let game = ScriptedGame(frames: 60)
        game.work = { _ in 2 * ms }
        game.beforeFrame = { loop, _ in if game.frames.count == 20 { loop.rateLimit = .cap(30) } }
        loop.run(game)
        #expect(display.vsync)
        let paced = game.records.suffix(40)
        #expect(paced.allSatisfy { $0.isPaced && !$0.isLate() })
        // 30 FPS on 60 Hz: every second vblank, 33.3 ms apart, shown at their targets.
        let gaps = zip(paced, paced.dropFirst()).map { $1.targetTimestamp - $0.targetTimestamp }
        #expect(gaps.allSatisfy { abs($0 - 1_000_000_000 / 30) <= 1 })
        #expect(paced.allSatisfy { $0.presentTime == $0.targetTimestamp })
        #expect(game.frames[20].targetTimestampNanoseconds > game.records[19].presentTime, "no slot before the last flip")
    }

    @Test("Where the backend cannot turn vsync off, uncapped runs at the display's rate, paced")
    func vsyncThatStaysOn() {
        let display = SimulatedDisplay(panel: .fixed(hz(60)))
        let backend = FlipRecordingBackend(display, canTurnVsyncOff: false)
        let loop = FrameLoop(link: DisplayLink(), backend: backend)
        loop.rateLimit = .uncapped
        let game = ScriptedGame(frames: 30)
        game.work = { _ in 2 * ms }
        loop.run(game)
        #expect(display.vsync)
        #expect(game.records.allSatisfy { $0.isPaced && !$0.isLate() })
        let gaps = zip(game.records, game.records.dropFirst()).map { $1.presentTime - $0.presentTime }
        #expect(gaps.allSatisfy { abs($0 - 1_000_000_000 / 60) <= 1 })
    }
}
