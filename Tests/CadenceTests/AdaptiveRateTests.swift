import Testing
@testable import Cadence

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

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) -> Double {
        loop.doWork(work(loop.clock.now))
        return 0
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        records.append(record)
    }

    func idle(_ loop: FrameLoop) -> Bool { false }
}

/// Runs an adaptive game on `display` for `seconds` of virtual time; its records.
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

private let s: Nanoseconds = 1_000_000_000
private func fullscreenVRR() -> SimulatedDisplay {
    SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: true)
}

/// The records whose target lies in `range` of seconds.
private func during(_ records: [FrameRecord], _ range: Range<Double>) -> [FrameRecord] {
    records.filter { range.contains(TimeUnit.seconds($0.targetTimestamp)) }
}

/// How many times the effective rate changed.
private func rateChanges(_ records: [FrameRecord]) -> Int {
    zip(records, records.dropFirst()).filter { $0.effectiveHz != $1.effectiveHz }.count
}

@Suite("Adaptive rate in simulation, judged on the trace")
struct AdaptiveRateTests {
    @Test("VRR 48–144 fullscreen with 4 ms of work runs at 144 Hz, on time")
    func lightWorkRunsAtTheMaximum() {
        let records = runAdaptive(fullscreenVRR(), seconds: 5, work: schedule([(0, 4)]))
        #expect(records.count > 700)
        #expect(records.allSatisfy { $0.effectiveHz == 144 && $0.refreshMode == .variable })
        #expect(records.allSatisfy { !$0.isLate() })
    }

    @Test("4 → 11 → 5 ms: 144 Hz, then 70–91 Hz with ≤ 2% late, then above 130 Hz within 1.5 s")
    func followsTheWork() {
        let records = runAdaptive(fullscreenVRR(), seconds: 15, work: schedule([(0, 4), (5, 11), (10, 5)]))
        #expect(during(records, 0..<5).allSatisfy { $0.effectiveHz == 144 && !$0.isLate() })

        let heavy = during(records, 5..<10)
        let late = heavy.filter { $0.isLate() }.count
        #expect(Double(late) <= 0.02 * Double(heavy.count), "\(late) of \(heavy.count) frames late")
        let settled = during(records, 5.5..<10)
        #expect(settled.allSatisfy { (70...91).contains($0.effectiveHz) }, "\(Set(settled.map(\.effectiveHz)))")
        #expect(rateChanges(settled) == 0)

        let recovered = during(records, 11.5..<15)
        #expect(recovered.allSatisfy { $0.effectiveHz > 130 && !$0.isLate() })
    }

    @Test("Fixed 60 Hz with 20 ms of work settles at 30 Hz and presents on time")
    func fixedDisplayDropsToADivisor() {
        let records = runAdaptive(SimulatedDisplay(panel: .fixed(hz(60))), seconds: 5, work: schedule([(0, 20)]))
        let settled = during(records, 0.5..<5)
        #expect(settled.count > 100)
        #expect(settled.allSatisfy { $0.effectiveHz == 30 && $0.refreshMode == .fixed })
        #expect(settled.allSatisfy { $0.presentTime == $0.targetTimestamp })
    }

    @Test("Noisy work (9–13 ms) settles on one rate and stays there")
    func noisyWorkDoesNotOscillate() {
        var rng = SeededGenerator(seed: 0xADA9_7173)
        let records = runAdaptive(fullscreenVRR(), seconds: 20) { _ in
            Nanoseconds.random(in: 9 * ms...13 * ms, using: &rng)
        }
        let settled = during(records, 2..<20)
        #expect(rateChanges(settled) == 0, "\(rateChanges(settled)) changes")
        #expect(settled.allSatisfy { !$0.isLate() })
    }

    @Test("Work swinging 10 ↔ 12 ms every 250 ms changes the rate at most once after settling")
    func swingingWorkDoesNotOscillate() {
        let records = runAdaptive(fullscreenVRR(), seconds: 20) { now in
            (now / (s / 4)) % 2 == 0 ? 10 * ms : 12 * ms
        }
        #expect(rateChanges(during(records, 2..<20)) <= 1)
    }

    @Test("Speed up only after sustained headroom: a 0.3 s dip in work does not raise the rate")
    func shortDipDoesNotClimb() {
        let records = runAdaptive(fullscreenVRR(), seconds: 8, work: schedule([(0, 11), (4, 5), (4.3, 11)]))
        let after = during(records, 1..<8)
        #expect(after.allSatisfy { $0.effectiveHz <= 91 })
        #expect(after.filter { $0.isLate() }.isEmpty)
    }

    @Test("One long frame (a hitch) does not lower the rate")
    func singleHitchKeepsTheRate() {
        var hitched = false
        let records = runAdaptive(fullscreenVRR(), seconds: 5) { now in
            guard now >= 3 * s && !hitched else { return 4 * ms }
            hitched = true
            return 30 * ms
        }
        #expect(records.allSatisfy { $0.effectiveHz == 144 })
        #expect(records.filter { $0.isLate() }.count == 1)
    }
}

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

    @Test("VRR: any whole rate in range; below the minimum the interval also holds one repeat")
    func variableRefreshOffersAnyRate() {
        let choices = RateChoices(.variable(minimum: hz(48), maximum: hz(144)))
        #expect(choices.highest == hz(144))
        #expect(choices.highest(withIntervalAtLeast: 4 * ms) == hz(144))
        #expect(choices.highest(withIntervalAtLeast: 12_650_000) == hz(79))
        // 23 ms is past the panel's 20.8 ms: 23 + 6.94 ms = 29.94 ms → 33 Hz.
        #expect(choices.highest(withIntervalAtLeast: 23 * ms) == hz(33))
        // Without vsync there is no panel to keep in range.
        #expect(RateChoices(.unsynced(reported: hz(60))).highest(withIntervalAtLeast: 23 * ms) == hz(43))
    }

    @Test("Down fast: two late frames drop the rate at once to hold the largest work; one does not")
    func dropsOnMissingFrames() {
        let choices = RateChoices(.variable(minimum: hz(48), maximum: hz(144)))
        var controller = AdaptiveRateController()
        #expect(controller.rate(for: choices) == 144)
        for k in 0..<10 { controller.record(work: 4 * ms, late: false, at: Nanoseconds(k) * 7 * ms) }
        controller.record(work: 11 * ms, late: true, at: 80 * ms)
        #expect(controller.rate(for: choices) == 144)
        controller.record(work: 11 * ms, late: true, at: 90 * ms)
        // 11 ms + 15% = 12.65 ms → 79 Hz.
        #expect(controller.rate(for: choices) == 79)
        #expect(controller.rate(for: choices) == 79, "the same late frames do not drop it twice")
    }

    @Test("Up slowly: a faster rate must fit for the whole climb delay first")
    func climbsAfterSustainedHeadroom() {
        let choices = RateChoices(.fixed(VsyncGrid(origin: 0, rate: hz(60))))
        var controller = AdaptiveRateController()
        _ = controller.rate(for: choices)
        var time: Nanoseconds = 0
        for _ in 0..<16 {
            time += 33 * ms
            controller.record(work: 20 * ms, late: false, at: time)
        }
        #expect(controller.rate(for: choices) == 30)
        var climbedAt: Nanoseconds?
        while climbedAt == nil && time < 3 * s {
            time += 33 * ms
            controller.record(work: 5 * ms, late: false, at: time)
            if controller.rate(for: choices) == 60 { climbedAt = time }
        }
        // 5 ms + 30% fits 60 Hz once the 20 ms frames have left the window (16 frames),
        // then the climb waits 0.5 s.
        let headroomFrom: Nanoseconds = (16 + 16) * 33 * ms
        #expect(climbedAt.map { $0 >= headroomFrom + 500 * ms && $0 < headroomFrom + 500 * ms + 34 * ms } == true)
    }
}
