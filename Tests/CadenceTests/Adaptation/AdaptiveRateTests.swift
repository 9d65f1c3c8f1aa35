import Foundation
import Testing
@_spi(Programs) @testable import Cadence

/// A game whose rate follows its work, as the sample's `--fps adaptive` does:
/// it sets the loop's limit to adaptive, and the loop runs the controller.
private final class AdaptiveGame: FrameLoopClient {
    let work: (Nanoseconds) -> Nanoseconds
    let duration: Nanoseconds
    var records: [FrameRecord] = []

    init(seconds: Double, work: @escaping (Nanoseconds) -> Nanoseconds) {
        duration = TimeUnit.nanoseconds(seconds: seconds)
        self.work = work
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        guard loop.clock.now < duration else { return false }
        loop.rateLimit = .adaptive
        return true
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        loop.doWork(work(loop.clock.now))
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        records.append(record)
    }

    func idle(_ loop: FrameLoop) -> Bool { false }
}

/// Runs an adaptive game on `display` for `seconds` of virtual time; its records.
@MainActor
private func runAdaptive(_ display: SimulatedDisplay, seconds: Double,
                         work: @escaping (Nanoseconds) -> Nanoseconds) -> [FrameRecord] {
    let game = AdaptiveGame(seconds: seconds, work: work)
    FrameLoop(link: DisplayLink(), backend: SimulatedBackend(display: display)).run(game)
    return game.records
}

/// Work by time, as `--work-schedule "<sec>:<ms>,..."` gives it.
private func schedule(_ steps: [(seconds: Double, milliseconds: Double)]) -> (Nanoseconds) -> Nanoseconds {
    { now in
        let step = steps.last { TimeUnit.nanoseconds(seconds: $0.seconds) <= now } ?? steps[0]
        return TimeUnit.nanoseconds(milliseconds: step.milliseconds)
    }
}

private func fullscreenVRR() -> SimulatedDisplay {
    SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: true)
}

/// The records whose target lies in `range` of seconds.
private func during(_ records: [FrameRecord], _ range: Range<Double>) -> [FrameRecord] {
    records.filter { range.contains(TimeUnit.seconds($0.targetTimestamp)) }
}

/// How many times the effective rate changed.
private func rateChanges(_ records: [FrameRecord]) -> Int {
    zip(records, records.dropFirst()).filter { $0.pacedHz != $1.pacedHz }.count
}

@MainActor
@Suite("Adaptive rate in simulation, judged on the trace")
struct AdaptiveRateTests {
    @Test("VRR 48–144 fullscreen with 4 ms of work runs at 144 Hz, on time")
    func lightWorkRunsAtTheMaximum() {
        let records = runAdaptive(fullscreenVRR(), seconds: 5, work: schedule([(0, 4)]))
        #expect(records.count > 700)
        #expect(records.allSatisfy { $0.pacedHz == 144 && $0.refreshMode == .variable })
        #expect(records.allSatisfy { !$0.isLate() })
    }

    @Test("4 → 11 → 5 ms: 144 Hz, then 70–91 Hz with ≤ 2% late, then above 130 Hz within 1.5 s")
    func followsTheWork() {
        let records = runAdaptive(fullscreenVRR(), seconds: 15, work: schedule([(0, 4), (5, 11), (10, 5)]))
        #expect(during(records, 0..<5).allSatisfy { $0.pacedHz == 144 && !$0.isLate() })

        let heavy = during(records, 5..<10)
        let late = heavy.filter { $0.isLate() }.count
        #expect(Double(late) <= 0.02 * Double(heavy.count), "\(late) of \(heavy.count) frames late")
        let settled = during(records, 5.5..<10)
        #expect(settled.allSatisfy { (70...91).contains($0.pacedHz) }, "\(Set(settled.map(\.pacedHz))) \(zip(records, records.dropFirst()).filter { $0.pacedHz != $1.pacedHz }.map { ($1.frame, $1.pacedHz, $0.workEnd - $0.callbackStart) })")
        #expect(rateChanges(settled) == 0)

        let recovered = during(records, 11.5..<15)
        #expect(recovered.allSatisfy { $0.pacedHz > 130 && !$0.isLate() })
    }

    @Test("Fixed 60 Hz with 20 ms of work settles at 30 Hz and presents on time")
    func fixedDisplayDropsToADivisor() {
        let records = runAdaptive(SimulatedDisplay(panel: .fixed(hz(60))), seconds: 5, work: schedule([(0, 20)]))
        let settled = during(records, 0.5..<5)
        #expect(settled.count > 100)
        #expect(settled.allSatisfy { $0.pacedHz == 30 && $0.refreshMode == .fixed })
        #expect(settled.allSatisfy { $0.presentTime == $0.targetTimestamp })
    }

    @Test("Noisy work (9–13 ms) settles on one rate and stays there")
    func noisyWorkDoesNotOscillate() {
        var rng = SeededGenerator(seed: 0xADA9_7173)
        let records = runAdaptive(fullscreenVRR(), seconds: 20) { _ in
            Nanoseconds.random(in: 9 * ms...13 * ms, using: &rng)
        }
        let settled = during(records, 2..<20)
        #expect(rateChanges(settled) == 0, "\(rateChanges(settled)) changes \(zip(records, records.dropFirst()).filter { $0.pacedHz != $1.pacedHz }.prefix(12).map { ($1.frame, $1.pacedHz, $0.workEnd - $0.callbackStart) })")
        #expect(settled.allSatisfy { !$0.isLate() })
    }

    @Test("Work swinging 10 ↔ 12 ms every 250 ms changes the rate at most once after settling")
    func swingingWorkDoesNotOscillate() {
        let records = runAdaptive(fullscreenVRR(), seconds: 20) { now in
            (now / (s / 4)) % 2 == 0 ? 10 * ms : 12 * ms
        }
        #expect(rateChanges(during(records, 2..<20)) <= 1)
    }

    @Test("A 0.3 s dip in the work runs at the rate the dip allows, and the rate comes back down with at most two late frames")
    func shortDipFollowsTheWork() {
        let records = runAdaptive(fullscreenVRR(), seconds: 8, work: schedule([(0, 11), (4, 5), (4.3, 11)]))
        // 11 ms + 15% = 12.65 ms: 79 Hz. 5 ms + 30% = 6.5 ms fits 144 Hz (6.94 ms).
        #expect(during(records, 1..<4).allSatisfy { $0.pacedHz == 79 && !$0.isLate() })
        #expect(during(records, 4.05..<4.3).allSatisfy { $0.pacedHz == 144 && !$0.isLate() })
        #expect(during(records, 4.35..<8).allSatisfy { $0.pacedHz == 79 })
        #expect(during(records, 4.3..<8).filter { $0.isLate() }.count <= 2)
    }

    @Test("One long frame (a hitch) does not lower the rate")
    func singleHitchKeepsTheRate() {
        var hitched = false
        let records = runAdaptive(fullscreenVRR(), seconds: 5) { now in
            guard now >= 3 * s && !hitched else { return 4 * ms }
            hitched = true
            return 30 * ms
        }
        #expect(records.allSatisfy { $0.pacedHz == 144 })
        #expect(records.filter { $0.isLate() }.count == 1)
    }

    @Test("Fixed 60 Hz, 2 ms of work and one 50 ms hitch at 2 s: stays at 60 Hz, on time again within a second")
    func singleHitchAtSixtyHertz() {
        var hitched = false
        let records = runAdaptive(SimulatedDisplay(panel: .fixed(hz(60))), seconds: 5) { now in
            guard now >= 2 * s && !hitched else { return 2 * ms }
            hitched = true
            return 50 * ms
        }
        #expect(records.count > 250)
        #expect(records.allSatisfy { $0.pacedHz == 60 }, "\(Set(records.map(\.pacedHz)))")
        let afterwards = during(records, 3..<5)
        #expect(afterwards.count > 100)
        #expect(afterwards.allSatisfy { $0.presentTime == $0.targetTimestamp })
    }

    @Test("VRR 48–144 fullscreen, work 3 → 9 → 15 → 5 → 30 ms: one rate change per work change, to the rate the work allows")
    func oneStepPerWorkChange() {
        let records = runAdaptive(fullscreenVRR(), seconds: 15,
                                  work: schedule([(0, 3), (3, 9), (6, 15), (9, 5), (12, 30)]))
        // Worked by hand: a drop holds the work plus 15%, rounded down to a whole hertz;
        // a climb needs the work plus 30% to fit, here 144 Hz (6.94 ms) for 5 ms.
        // 3 ms: 144 Hz. 9 ms: 10.35 ms → 96 Hz. 15 ms: 17.25 ms → 57 Hz.
        // 30 ms: 34.5 ms → 28 Hz, below the panel's 48 Hz: its driver shows each frame twice.
        let expected: [(Range<Double>, Double)] = [(0..<3, 144), (3..<6, 96), (6..<9, 57), (9..<12, 144), (12..<15, 28)]
        for (segment, rate) in expected {
            let frames = during(records, segment)
            #expect(rateChanges(frames) <= 1, "\(segment): \(rateChanges(frames)) changes, no ladder")
            #expect(frames.last?.pacedHz == rate, "\(segment) ends at \(frames.last?.pacedHz ?? 0) Hz")
        }
        #expect(rateChanges(records) == 4)
        // Drops happen within a few frames; the climb after about a second.
        #expect(during(records, 3.1..<6).allSatisfy { $0.pacedHz == 96 })
        #expect(during(records, 6.1..<9).allSatisfy { $0.pacedHz == 57 })
        #expect(during(records, 10.5..<12).allSatisfy { $0.pacedHz == 144 })
        #expect(during(records, 12.2..<15).allSatisfy { $0.pacedHz == 28 })
    }
}

@MainActor
@Suite("Adaptive rate: choices and decisions")
struct AdaptiveDecisionTests {
    @Test func fixedDisplayOffersItsDivisors() {
        let choices = RateChoices(.fixed(VsyncGrid(origin: 0, rate: hz(60))))
        #expect(choices == .discrete([60, 30, 20, 15, 12, 10].map { hz($0) }))
        #expect(choices.highest(withIntervalAtLeast: 23 * ms) == hz(30))
        #expect(choices.highest(withIntervalAtLeast: 16 * ms) == hz(60))
        #expect(choices.highest(withIntervalAtLeast: 500 * ms) == hz(10))
        #expect(choices.nearest(to: hz(59.94)) == hz(60))
    }

    @Test("VRR: any whole rate up to the maximum; below the minimum the driver repeats, the game needs no extra time")
    func variableRefreshOffersAnyRate() {
        let choices = RateChoices(.variable(minimum: hz(48), maximum: hz(144)))
        #expect(choices.highest == hz(144))
        #expect(choices.highest(withIntervalAtLeast: 4 * ms) == hz(144))
        #expect(choices.highest(withIntervalAtLeast: 12_650_000) == hz(79))
        // 23 ms is past the panel's 20.8 ms: 43 Hz, each frame shown twice by the driver.
        #expect(choices.highest(withIntervalAtLeast: 23 * ms) == hz(43))
        #expect(RateChoices(.unsynced(reported: hz(60))).highest(withIntervalAtLeast: 23 * ms) == hz(43))
    }

    /// A frame that cost `cost`, its present returning at `at`, shown at once (no vblank wait to leave out).
    static func frame(cost: Nanoseconds, at: Nanoseconds) -> FrameRecord {
        FrameRecord(frame: 0, timestamp: 0, targetTimestamp: at, presentTime: at, delta: 0, limit: .adaptive, rate: hz(144),
                    refreshMode: .variable, callbackStart: at - cost, workEnd: at, presentSubmit: at, skippedFrames: 0)
    }

    static let vrr = DisplayTiming.variable(minimum: hz(48), maximum: hz(144))

    @Test("Down in one step: two of the last three frames overrunning drop the rate to hold the largest recent cost; one does not")
    func dropsOnOverrunningCost() {
        var ceiling = WorkRateCeiling(tuning: .adaptive)
        func next(cost: Nanoseconds, at t: Nanoseconds) -> Double {
            ceiling.observe(Self.frame(cost: cost, at: t), on: Self.vrr)
            ceiling.plan(under: hz(144), on: Self.vrr)
            return ceiling.ceiling?.rate.hz ?? 144
        }
        for k in 0..<10 { #expect(next(cost: 4 * ms, at: Nanoseconds(k) * 7 * ms) == 144) }
        #expect(next(cost: 8 * ms, at: 80 * ms) == 144, "one frame over 6.94 ms is a hitch")
        // The last three cost 4, 8, 11 ms. Their median, 8 ms + 15% = 9.2 ms, would
        // be 108 Hz and leave every 11 ms frame late; the largest, 11 ms + 15% =
        // 12.65 ms, is 79 Hz.
        #expect(next(cost: 11 * ms, at: 90 * ms) == 79)
        #expect(ceiling.ceiling?.reason == .work(cost: 11 * ms))
        #expect(next(cost: 11 * ms, at: 103 * ms) == 79, "at 79 Hz those frames fit: no second drop")
    }

    @Test("Up on the first frame the work allows; work that alternates stays at the rate holding all of it")
    func climbsOnTheFirstFrameTheWorkAllows() {
        let sixty = DisplayTiming.fixed(VsyncGrid(origin: 0, rate: hz(60)))
        var ceiling = WorkRateCeiling(tuning: .adaptive)
        var time: Nanoseconds = 0
        func next(_ cost: Nanoseconds) -> Double {
            time += 33 * ms
            ceiling.observe(Self.frame(cost: cost, at: time), on: .unsynced(reported: hz(60)))
            ceiling.plan(under: hz(60), on: sixty)
            return ceiling.ceiling?.rate.hz ?? 60
        }
        // 20 ms + 15% = 23 ms: every second vblank (30 Hz) after two overruns.
        #expect([20, 20, 20, 20].map { next($0 * ms) } == [60, 30, 30, 30])
        // 5 ms + 30% = 6.5 ms fits 60 Hz, and the 20 ms frames are one run: up at once.
        #expect(next(5 * ms) == 60)
        // 5 and 20 ms in turn: down after two overruns, then the window holds two runs of 20 ms frames.
        #expect([20, 5, 20, 5, 20, 5].map { next($0 * ms) } == [60, 60, 30, 30, 30, 30])
        // Light for good: up once the heavy frames have left the window (0.5 s of frames, at most 16).
        let light = (0..<16).map { _ in next(5 * ms) }
        #expect(light.last == 60 && light.filter { $0 == 30 }.count >= 10, "\(light)")
    }

    @Test("The Rate limits article states the rules the work's ceiling follows: its lookback, window, margins, adaptive and at a request")
    func documentationAgreesWithTheCeiling() throws {
        let article = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Cadence/Cadence.docc/RateLimits.md"), encoding: .utf8)
        func section(_ title: String) throws -> String {
            try #require(article.components(separatedBy: title).dropFirst().first?.components(separatedBy: "\n### ").first)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let adaptive = try section("### Adaptive"), work = try section("### The work lowers the rate, at any limit")
        let a = WorkRateCeiling.Tuning.adaptive, r = WorkRateCeiling.Tuning.request
        for t in [a, r] {
            #expect(t.overrunsToDrop == 2 && t.dropLookback == 3 && t.window == 16 && t.windowSpan == 500_000_000)
        }
        #expect(work.contains("When \(r.overrunsToDrop) of the last \(r.dropLookback) frames' work overran the interval"))
        #expect(work.contains("the largest work of the last \(r.window) frames (none older than half a second), with nothing to spare"))
        #expect(a.measure == .cost && r.measure == .work && r.keepMargin == 0 && r.climbMargin == 0)
        #expect(adaptive.contains("the same ceiling") && adaptive.contains("a drop holds the largest cost plus \(Int(a.keepMargin * 100))%"))
        #expect(adaptive.contains("a climb needs the faster rate to hold the latest cost plus \(Int(a.climbMargin * 100))%"))
    }

    @Test("A frame's cost is its work plus the present's own cost; waiting for the vblank is not cost")
    func frameCost() {
        func record(start: Nanoseconds, workEnd: Nanoseconds, submit: Nanoseconds, returned: Nanoseconds) -> FrameRecord {
            FrameRecord(frame: 0, timestamp: 0, targetTimestamp: 0, presentTime: returned, delta: 0, limit: .adaptive,
                        rate: hz(60), refreshMode: .fixed, callbackStart: start, workEnd: workEnd,
                        presentSubmit: submit, skippedFrames: 0)
        }
        let grid = VsyncGrid(origin: 0, rate: hz(50))                       // vblanks every 20 ms
        // 3 ms of work, submitted at 10 ms, returned on the 20 ms vblank: 3 ms.
        #expect(record(start: 0, workEnd: 3 * ms, submit: 10 * ms, returned: 20 * ms).cost(on: .fixed(grid)) == 3 * ms)
        // The same present returning 1 ms after that vblank (a slow present): 4 ms.
        #expect(record(start: 0, workEnd: 3 * ms, submit: 10 * ms, returned: 21 * ms).cost(on: .fixed(grid)) == 4 * ms)
        // No vsync: the present's 10 ms copy is all cost (Xvfb): 13 ms.
        #expect(record(start: 0, workEnd: 3 * ms, submit: 10 * ms, returned: 20 * ms)
            .cost(on: .unsynced(reported: hz(60))) == 13 * ms)
    }
}
