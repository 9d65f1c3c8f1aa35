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
