import Testing
@_spi(Programs) @testable import Cadence

@MainActor
@Suite("Display link in virtual time")
struct DisplayLinkTests {
    @Test func steadyFramesLandOnEveryVblank() {
        let game = ScriptedGame(frames: 120)
        simulate(SimulatedDisplay(panel: .fixed(hz(60))), fps: 0, game: game)
        let grid = VsyncGrid(origin: 0, rate: hz(60))
        for (i, frame) in game.frames.enumerated() {
            #expect(frame.targetTimestampNanoseconds == grid.time(at: Int64(i) + 1))
            #expect(frame.deltaNanoseconds == grid.time(at: Int64(i) + 1) - grid.time(at: Int64(i)))
            #expect(frame.skippedFrames == 0)
        }
        // Every frame reached the glass exactly at its target, and the next
        // callback's timestamp is the vblank that showed the previous frame.
        #expect(game.records.allSatisfy { $0.presentTime == $0.targetTimestamp })
        for (prev, next) in zip(game.records, game.records.dropFirst()) {
            #expect(next.timestamp == prev.presentTime)
        }
    }

    @Test func thirtyOnSixtyPresentsInTheRefreshBeforeItsTarget() {
        let game = ScriptedGame(frames: 60)
        simulate(SimulatedDisplay(panel: .fixed(hz(60))), fps: 30, game: game)
        let period = hz(60).period
        // The seconds-based API edge: a 30 Hz interval, the display's 60 Hz duration.
        #expect(game.frames.allSatisfy { abs($0.frameInterval - 1.0 / 30) < 1e-9 && abs($0.duration - 1.0 / 60) < 1e-9 })
        for record in game.records {
            #expect(record.pacedHz == 30)
            #expect(record.presentTime == record.targetTimestamp)
            // Submitted inside the refresh ending at the target, not earlier.
            #expect(record.presentSubmit > record.targetTimestamp - period)
            #expect(record.presentSubmit <= record.targetTimestamp)
        }
    }

    @Test("A long frame is shown late once, then skipped slots are counted in delta")
    func longFrame() {
        let game = ScriptedGame(frames: 20)
        game.work = { $0 == 5 ? 40 * ms : 2 * ms }
        simulate(SimulatedDisplay(panel: .fixed(hz(60))), fps: 0, game: game)
        let grid = VsyncGrid(origin: 0, rate: hz(60))
        let late = game.records[5]
        // Target was vblank 6; 40 ms of work from vblank 5 (83.3 ms) ends at 123.3 ms,
        // so the frame shows at the first vblank after it was presented: 8.
        #expect(late.targetTimestamp == grid.time(at: 6))
        #expect(late.presentTime == grid.time(at: 8))
        // The next frame is planned for the 40 ms just measured: 3 vblanks on (20 Hz), vblank 11.
        let next = game.frames[6]
        #expect(next.timestampNanoseconds == grid.time(at: 8))
        #expect(next.targetTimestampNanoseconds == grid.time(at: 11))
        #expect(next.deltaNanoseconds == grid.time(at: 11) - grid.time(at: 6))
        // 83.3 ms from the last target is 1.67 intervals of 20 Hz: one of the link's frames passed with no callback.
        #expect(next.skippedFrames == 1)
        // Summed deltas track target time exactly: a delta-driven animation does not slow down.
        let summed = game.frames.reduce(0) { $0 + $1.deltaNanoseconds }
        #expect(summed == game.frames.last!.targetTimestampNanoseconds)
    }

    @Test("A callback that takes a full second counts its skipped frames exactly")
    func oneSecondCallback() {
        let game = ScriptedGame(frames: 10)
        game.work = { $0 == 3 ? 1_000 * ms : ms }
        simulate(SimulatedDisplay(panel: .fixed(hz(60))), fps: 0, game: game)
        let after = game.frames[4]
        #expect(!after.deltaWasClamped)
        // 1 s of work from vblank 3 ends exactly on vblank 63. The next frame is planned for that work at the
        // slowest even rate, 10 Hz (every 6th vblank): vblank 69, 65 vblanks (1.083 s) after the target of
        // vblank 4: 10.8 intervals of 10 Hz, so 10 of the link's frames passed with no callback.
        #expect(after.targetTimestampNanoseconds == VsyncGrid(origin: 0, rate: hz(60)).time(at: 69))
        #expect(after.skippedFrames == 10)
        #expect(game.frames.reduce(0) { $0 + $1.deltaNanoseconds } == game.frames.last!.targetTimestampNanoseconds)
    }

    @Test("A clock jump of seconds is clamped and the link resyncs to the grid")
    func suspendGap() {
        let game = ScriptedGame(frames: 10)
        game.work = { $0 == 4 ? 5_000 * ms : ms }   // the machine slept for 5 s
        simulate(SimulatedDisplay(panel: .fixed(hz(60))), fps: 0, game: game)
        let resumed = game.frames[5]
        #expect(resumed.deltaWasClamped)
        #expect(resumed.deltaNanoseconds == 1_500 * ms)
        let grid = VsyncGrid(origin: 0, rate: hz(60))
        for frame in game.frames[5...] {
            #expect(frame.targetTimestampNanoseconds == grid.time(at: grid.nearestIndex(to: frame.targetTimestampNanoseconds)))
        }
        // No burst: after the gap, one callback per vblank again.
        for (a, b) in zip(game.frames[6...], game.frames[7...]) {
            #expect(b.targetTimestampNanoseconds - a.targetTimestampNanoseconds == hz(60).period ||
                    b.targetTimestampNanoseconds - a.targetTimestampNanoseconds == hz(60).period - 1)
        }
    }

    @Test("Rate changes: target-driven motion stays a straight line, timestamp-driven hitches")
    func straightLine() {
        let game = ScriptedGame(frames: 400)
        let schedule: [(at: Nanoseconds, fps: Double)] = [(1_000 * ms, 30), (2_000 * ms, 120), (3_000 * ms, 40)]
        game.beforeFrame = { loop, now in
            if let change = schedule.last(where: { $0.at <= now }) { loop.link.preferredFramesPerSecond = change.fps }
        }
        simulate(SimulatedDisplay(panel: .fixed(hz(120))), fps: 60, game: game)
        #expect(Set(game.records.map(\.pacedHz)) == [60, 30, 120, 40])
        // Motion advanced by each delta is at its target, and every frame is on
        // the glass at its target: the same speed on the glass everywhere.
        #expect(zip(game.frames, game.frames.dropFirst()).allSatisfy {
            $1.targetTimestampNanoseconds - $0.targetTimestampNanoseconds == $1.deltaNanoseconds
        })
        #expect(game.records.allSatisfy { $0.presentTime == $0.targetTimestamp })
        // The same animation from `timestamp` lags by one interval, and the lag
        // jumps when the interval changes: the hitch users see.
        let lags = zip(game.frames, game.records).map { TimeUnit.seconds($1.presentTime - $0.timestampNanoseconds) }
        let jumps = zip(lags, lags.dropFirst()).filter { abs($0 - $1) > 0.001 }.count
        #expect(jumps == 3)
        #expect(lags.max()! - lags.min()! > 0.02)
    }

    @Test("Refresh throttled 120 → 60 Hz: a 40 Hz request becomes 30 Hz at the next callback")
    func refreshThrottle() {
        let game = ScriptedGame(frames: 100)
        let display = SimulatedDisplay(panel: .fixed(hz(120)), changes: [(at: 1_000 * ms, panel: .fixed(hz(60)))])
        simulate(display, fps: 40, game: game)
        let before = game.records.filter { $0.targetTimestamp < 1_000 * ms }
        let after = game.records.filter { $0.callbackStart > 1_000 * ms }
        #expect(before.allSatisfy { $0.pacedHz == 40 })
        #expect(after.allSatisfy { $0.pacedHz == 30 })
        // Every frame still lands on its target, on the new 60 Hz grid afterwards.
        #expect(game.records.allSatisfy { $0.presentTime == $0.targetTimestamp })
        let changeover = game.records.first { $0.callbackStart > 1_000 * ms }!
        #expect(changeover.delta <= hz(30).period + hz(60).period)
    }

    @Test func pausedLinkMakesNoCallbacksAndResumesWithoutBurst() {
        let game = ScriptedGame(frames: 40)
        var pausedAt: Nanoseconds?
        game.beforeFrame = { loop, now in
            if game.frames.count == 20 && pausedAt == nil { loop.link.isPaused = true; pausedAt = now }
            if let at = pausedAt, now > at + 2_000 * ms { loop.link.isPaused = false }
        }
        simulate(SimulatedDisplay(panel: .fixed(hz(60))), fps: 0, game: game)
        #expect(game.idleCalls >= 20)
        let resumed = game.frames[20]
        // The first callback after resume advances the game by one interval, not 2 s.
        #expect(resumed.deltaNanoseconds == hz(60).period || resumed.deltaNanoseconds == hz(60).period + 1)
        #expect(resumed.targetTimestampNanoseconds > pausedAt! + 2_000 * ms)
        for (a, b) in zip(game.frames[20...], game.frames[21...]) {
            #expect(b.targetTimestampNanoseconds - a.targetTimestampNanoseconds <= hz(60).period + 1)
        }
    }

    @Test func invalidateStopsTheLoop() {
        let game = ScriptedGame(frames: 1_000)
        game.beforeFrame = { loop, _ in if game.frames.count == 7 { loop.link.invalidate() } }
        simulate(SimulatedDisplay(panel: .fixed(hz(60))), fps: 0, game: game)
        #expect(game.frames.count == 7)
    }

    @Test("No drift: 10 simulated minutes at 240 Hz stay exactly on the vsync grid")
    func noDrift() {
        let frames = 240 * 600
        let game = ScriptedGame(frames: frames)
        game.work = { _ in 500_000 }
        // The vblank grid's phase is arbitrary: here it started 123 456 ns before the run.
        simulate(SimulatedDisplay(panel: .fixed(hz(240)), origin: -123_456), fps: 0, game: game)
        let grid = VsyncGrid(origin: -123_456, rate: hz(240))
        #expect(game.frames.count == frames)
        var onGrid = true
        for (i, f) in game.frames.enumerated() where f.targetTimestampNanoseconds != grid.time(at: Int64(i) + 1) {
            onGrid = false
        }
        #expect(onGrid)
        #expect(game.frames.last!.targetTimestampNanoseconds == -123_456 + 600 * 1_000_000_000)
    }
}
