import Testing
@_spi(Programs) @testable import Cadence

/// A run of `frames` frames at `fps` on `display` in `latency` mode, with work
/// chosen by the callback's start time; the records and every flip.
@MainActor
private func run(_ display: SimulatedDisplay, fps: Double, latency: FrameLatency, frames: Int = 600,
                 work: @escaping (Nanoseconds) -> Nanoseconds) -> (records: [FrameRecord], flips: [(at: Nanoseconds, isRepeat: Bool)]) {
    let backend = FlipRecordingBackend(display)
    let loop = FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: fps)), backend: backend)
    loop.latency = latency
    let game = ScriptedGame(frames: frames)
    game.work = { [unowned backend] _ in work(backend.clock.now) }
    loop.run(game)
    return (game.records, backend.flips)
}

/// Input-to-glass latency of each frame: on glass minus callback start.
private func latencies(_ records: [FrameRecord]) -> [Nanoseconds] {
    records.map { $0.presentTime - $0.callbackStart }.sorted()
}

private func lateCount(_ records: [FrameRecord]) -> Int { records.filter { $0.isLate() }.count }

/// The default predictor's smallest safety: a steady frame's latency is its cost plus this.
private let floorSafety = FrameCostPredictor.Tuning().safetyBounds.lowerBound

@MainActor
@Suite("Low latency: just-in-time callbacks in virtual time")
struct LowLatencyTests {
    @Test("Fixed 60 Hz, cap 60, 2 ms of work: the callback starts 2.5 ms before the vblank, none late")
    func fixedSixty() {
        let low = run(SimulatedDisplay(panel: .fixed(hz(60))), fps: 60, latency: .low) { _ in 2 * ms }
        #expect(lateCount(low.records) == 0)
        let p50 = latencies(low.records).nearestRank(0.5)!
        #expect(p50 <= 3 * ms)
        // From the second frame on: 2 ms of work plus the smallest safety, exactly.
        #expect(low.records.dropFirst().allSatisfy { $0.presentTime - $0.callbackStart == 2 * ms + floorSafety })
        // Every frame on its own vblank, one per refresh: pacing is unchanged.
        #expect(low.records.allSatisfy { $0.presentTime == $0.targetTimestamp })
        // Smooth mode starts right after the previous flip: a whole refresh of latency.
        let smooth = run(SimulatedDisplay(panel: .fixed(hz(60))), fps: 60, latency: .smooth) { _ in 2 * ms }
        #expect(latencies(smooth.records).nearestRank(0.5)! >= hz(60).period - 1)
    }

    @Test("Cap 72 on 144 Hz, 4 ms of work: p50 at most 5 ms, none late, every other vblank")
    func seventyTwoOnHundredFortyFour() {
        let low = run(SimulatedDisplay(panel: .fixed(hz(144))), fps: 72, latency: .low) { _ in 4 * ms }
        #expect(lateCount(low.records) == 0)
        #expect(latencies(low.records).nearestRank(0.5)! <= 5 * ms)
        let grid = VsyncGrid(origin: 0, rate: hz(144))
        let vblanks = low.records.map { grid.nearestIndex(to: $0.presentTime) }
        #expect(zip(vblanks, vblanks.dropFirst()).allSatisfy { $1 - $0 == 2 })
    }

    @Test("VRR 48–144 fullscreen, cap 78, 3 ms: p50 at most 4.5 ms, none late, presents 1/78 s apart")
    func variableRefresh() {
        let display = SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: true)
        let low = run(display, fps: 78, latency: .low) { _ in 3 * ms }
        #expect(lateCount(low.records) == 0)
        #expect(latencies(low.records).nearestRank(0.5)! <= 4_500_000)
        let period = hz(78).period
        let intervals = zip(low.records, low.records.dropFirst()).map { $1.presentTime - $0.presentTime }
        #expect(intervals.allSatisfy { abs($0 - period) <= 1 })
    }

    @Test("Work alternating 2 and 5 ms every 0.25 s with two 12 ms hitches: p50 at most 6.5 ms, late at most 2 + 1%")
    func alternatingWorkWithHitches() {
        let hitches: [Nanoseconds] = [3_100 * ms, 7_300 * ms]
        var hitchesLeft = hitches
        let low = run(SimulatedDisplay(panel: .fixed(hz(60))), fps: 60, latency: .low) { now in
            if let next = hitchesLeft.first, now >= next {
                hitchesLeft.removeFirst()
                return 12 * ms
            }
            return (now / (250 * ms)) % 2 == 0 ? 2 * ms : 5 * ms
        }
        #expect(hitchesLeft.isEmpty, "both hitches ran")
        #expect(latencies(low.records).nearestRank(0.5)! <= 6_500_000)
        #expect(lateCount(low.records) <= 2 + low.records.count / 100)
    }

    @Test("VRR below the panel's minimum: the driver's repeats fall while the loop waits or works, every frame on time",
          arguments: [40.0, 30, 20, 12])
    func repeatsDuringTheWait(fps: Double) {
        let display = SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: true)
        let low = run(display, fps: fps, latency: .low, frames: 120) { _ in 3 * ms }
        #expect(low.records.allSatisfy { $0.presentTime == $0.targetTimestamp }, "late frames at \(fps) FPS")
        #expect(latencies(low.records).dropLast(2).allSatisfy { $0 <= 3 * ms + floorSafety })
        // Once the driver has seen a frame's duration, as many repeats between
        // two new frames as cut the gap into pieces no longer than the panel's
        // longest hold: 48/fps rounded up, less the new frame.
        let lfc = LowFramerateCompensation(minimum: hz(48), maximum: hz(144))
        let repeatsPerFrame = Int((48 / fps).rounded(.up)) - 1
        #expect(low.flips.filter(\.isRepeat).count >= repeatsPerFrame * (low.records.count - 2))
        let gaps = zip(low.flips, low.flips.dropFirst()).map { $1.at - $0.at }
        #expect(gaps.allSatisfy { $0 >= lfc.shortest && $0 <= lfc.longest }, "gaps at \(fps) FPS: \(Set(gaps))")
    }

    @Test("Switching to low latency between frames takes effect at the next callback")
    func switchingModes() {
        let backend = SimulatedBackend(display: SimulatedDisplay(panel: .fixed(hz(60))))
        let loop = FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: 60)), backend: backend)
        let game = ScriptedGame(frames: 120)
        game.work = { _ in 2 * ms }
        game.beforeFrame = { loop, _ in loop.latency = loop.link.isPaused || game.frames.count < 60 ? .smooth : .low }
        loop.run(game)
        let latency = game.records.map { $0.presentTime - $0.callbackStart }
        #expect(latency[1..<60].allSatisfy { $0 >= hz(60).period - 1 })
        #expect(latency[60...].allSatisfy { $0 == 2 * ms + floorSafety })
        #expect(lateCount(game.records) == 0)
    }
}

@MainActor
@Suite("Frame cost predictor")
struct FrameCostPredictorTests {
    @Test("Before any frame there is no lead: the first callback starts at once")
    func empty() {
        #expect(FrameCostPredictor().lead == nil)
    }

    @Test("The prediction is the 95th percentile of work plus present over the window: rare outliers are ignored")
    func percentile() {
        var p = FrameCostPredictor()
        for i in 0..<120 { p.observe(cost: (i % 40 == 0 ? 12 * ms : 2 * ms) + 300_000, late: false, at: Nanoseconds(i) * 16 * ms) }
        // Three 12 ms outliers in 120: rank 114 is an ordinary frame.
        #expect(p.predictedCost == 2_300_000)
        #expect(p.lead == 2_300_000 + floorSafety)
        // Ten more of 12 ms push the percentile up: they are no longer rare.
        for i in 120..<130 { p.observe(cost: 12 * ms, late: false, at: Nanoseconds(i) * 16 * ms) }
        #expect(p.predictedCost == 12 * ms)
    }

    @Test("The window forgets: after 120 cheaper frames only they count")
    func window() {
        var p = FrameCostPredictor()
        for i in 0..<120 { p.observe(cost: 5 * ms, late: false, at: Nanoseconds(i) * ms) }
        for i in 120..<240 { p.observe(cost: 1 * ms, late: false, at: Nanoseconds(i) * ms) }
        #expect(p.predictedCost == 1 * ms)
    }

    @Test("A late frame doubles the safety up to its ceiling; it halves back towards the floor every half-life")
    func safety() {
        let tuning = FrameCostPredictor.Tuning()
        var p = FrameCostPredictor(tuning: tuning)
        #expect(p.safety == 500_000)
        p.observe(cost: 1 * ms, late: true, at: 0)
        #expect(p.safety == 1 * ms)
        p.observe(cost: 1 * ms, late: true, at: 0)
        p.observe(cost: 1 * ms, late: true, at: 0)
        p.observe(cost: 1 * ms, late: true, at: 0)
        #expect(p.safety == tuning.safetyBounds.upperBound)
        // One half-life later the 3.5 ms excess is 1.75 ms; two more, 0.4375 ms.
        p.observe(cost: 1 * ms, late: false, at: tuning.halfLife)
        #expect(p.safety == 500_000 + 1_750_000)
        p.observe(cost: 1 * ms, late: false, at: 3 * tuning.halfLife)
        #expect(p.safety == 500_000 + 437_500)
    }

    @Test("A record's cost: work and present when timed; behind a vsync wait only what the present took past its vblank")
    func presentCostFromRecords() {
        func record(_ mode: RefreshMode, returned: Nanoseconds = 20 * ms) -> FrameRecord {
            FrameRecord(frame: 0, timestamp: 0, targetTimestamp: 20 * ms, presentTime: returned, delta: 0, limit: .cap(60),
                        rate: hz(60), refreshMode: mode, callbackStart: 10 * ms, workEnd: 13 * ms,
                        presentSubmit: 14 * ms, skippedFrames: 0)
        }
        // 3 ms of work, submitted at 14 ms; presented at once, the present took 6 ms.
        var timed = FrameCostPredictor()
        timed.observe(record(.variable), on: .variable(minimum: hz(48), maximum: hz(144)))
        #expect(timed.predictedCost == 3 * ms + 6 * ms)
        // A vblank at 20 ms: the present waited for it from 14 ms, which is no cost.
        let grid = VsyncGrid(origin: 20 * ms, rate: hz(60))
        var vsync = FrameCostPredictor()
        vsync.observe(record(.fixed), on: .fixed(grid))
        #expect(vsync.predictedCost == 3 * ms)
        // Returned 1 ms after that vblank: that millisecond is the present's own.
        var slow = FrameCostPredictor()
        slow.observe(record(.fixed, returned: 21 * ms), on: .fixed(grid))
        #expect(slow.predictedCost == 4 * ms)
    }

    @Test("A late frame widens the safety when its cost overran the target, not when only the wait for the target woke late")
    func whoseFaultLatenessIs() {
        func late(_ mode: RefreshMode, workEnd: Nanoseconds) -> FrameRecord {
            // Target 20 ms, on the glass 1 ms late; the present itself takes 0.1 ms.
            FrameRecord(frame: 0, timestamp: 0, targetTimestamp: 20 * ms, presentTime: 21 * ms, delta: 0, limit: .cap(60),
                        rate: hz(60), refreshMode: mode, callbackStart: 10 * ms, workEnd: workEnd,
                        presentSubmit: 20_900_000, skippedFrames: 0)
        }
        var p = FrameCostPredictor()
        p.observe(late(.none, workEnd: 15 * ms), on: .unsynced(reported: hz(60)))
        #expect(p.safety == 500_000, "the work ended 5 ms early: the wake-up was late")
        p.observe(late(.none, workEnd: 19_950_000), on: .unsynced(reported: hz(60)))
        #expect(p.safety == 1 * ms, "work and present ran past the target")
        // Behind a vsync wait the present's cost is unknown: any late frame counts.
        var vsync = FrameCostPredictor()
        vsync.observe(late(.fixed, workEnd: 15 * ms), on: .fixed(VsyncGrid(origin: 21 * ms, rate: hz(50))))
        #expect(vsync.safety == 1 * ms)
    }

    @Test("A hitch that overran by more than the widest safety leaves the safety alone; a smaller overrun widens it")
    func hitchesNoSafetyCouldSave() {
        func late(overrun: Nanoseconds) -> FrameRecord {
            // Unsynced, target 20 ms, no present cost: on the glass when the work ended.
            FrameRecord(frame: 0, timestamp: 0, targetTimestamp: 20 * ms, presentTime: 20 * ms + overrun, delta: 0,
                        limit: .cap(60), rate: hz(60), refreshMode: .none, callbackStart: 10 * ms,
                        workEnd: 20 * ms + overrun, presentSubmit: 20 * ms + overrun, skippedFrames: 0)
        }
        let widest = FrameCostPredictor.Tuning().safetyBounds.upperBound
        var p = FrameCostPredictor()
        p.observe(late(overrun: widest + 1), on: .unsynced(reported: hz(60)))
        #expect(p.safety == floorSafety, "4 ms of safety would not have saved it")
        p.observe(late(overrun: widest), on: .unsynced(reported: hz(60)))
        #expect(p.safety == 2 * floorSafety, "the widest safety would have")
    }

    @Test("The backend hears of each latency change on the loop's thread, and of smooth latency when the loop ends")
    func backendHearsLatencyChanges() {
        final class Listening: FrameBackend {
            let inner = SimulatedBackend(display: SimulatedDisplay(panel: .fixed(hz(60))))
            var heard: [(frame: Int, latency: FrameLatency)] = []
            var frames = 0
            var clock: FrameClock { inner.clock }
            func currentTiming() -> DisplayTiming { inner.currentTiming() }
            func wait(until deadline: Nanoseconds) { inner.wait(until: deadline) }
            func present() -> PresentOutcome {
                frames += 1
                return inner.present()
            }
            func latencyChanged(to latency: FrameLatency) { heard.append((frames, latency)) }
        }
        final class Toggling: FrameLoopClient {
            var started = 0
            func prepareFrame(_ loop: FrameLoop) -> Bool {
                // Frames 0–1 smooth, 2–4 low, 5–6 smooth, 7–9 low; the run ends in low latency.
                loop.latency = [2, 3, 4, 7, 8, 9].contains(started) ? .low : .smooth
                return started < 10
            }
            func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) { started += 1 }
        }
        let backend = Listening()
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: 60)), backend: backend).run(Toggling())
        // Told before the frame that first runs in the new mode (after `frame` presents), once per change.
        #expect(backend.heard.map(\.frame) == [2, 5, 7, 10])
        #expect(backend.heard.map(\.latency) == [.low, .smooth, .low, .smooth])
    }
}
