import Testing
@_spi(Programs) @testable import Cadence

/// Runs `frames` frames on `panel` with a cap of `cap`, each working `work(start)`, in virtual time.
@MainActor private func run(_ panel: SimulatedDisplay.Panel, cap: Double, frames: Int,
                 work: @escaping (Nanoseconds) -> Nanoseconds) -> [FrameRecord] {
    runLoop(panel, cap: cap, frames: frames, work: work).records
}

@MainActor private func runLoop(_ panel: SimulatedDisplay.Panel, cap: Double, frames: Int,
                     work: @escaping (Nanoseconds) -> Nanoseconds) -> (records: [FrameRecord], loop: FrameLoop) {
    let backend = SimulatedBackend(display: SimulatedDisplay(panel: panel, fullscreen: true))
    let game = ScriptedGame(frames: frames)
    game.work = { [unowned backend] _ in work(backend.clock.now) }
    let loop = FrameLoop(link: DisplayLink(preferred: FrameRateRange(maximum: cap, preferred: cap)), backend: backend)
    loop.run(game)
    return (game.records, loop)
}

/// Glass intervals between consecutive records.
private func intervals(_ records: ArraySlice<FrameRecord>) -> Set<Nanoseconds> {
    Set(zip(records, records.dropFirst()).map { $1.glassTime - $0.glassTime })
}

/// Expected values worked out by hand: the rate the work can meet is the fastest even rate whose interval holds the
/// work, a whole number of hertz with variable refresh, a whole number of vblanks on a fixed display; the first
/// frame overruns the cap's interval, which is what lowers the rate, and is the only late one.
@MainActor
@Suite("Work longer than the cap's interval: the next even rate the work can meet, frames on target")
struct WorkRateCeilingTests {
    @Test("15 ms under a cap of 78 on a 48-144 Hz panel (the sample's --simulate-display vrr:48-144 --fps 78 --work-schedule 0:15): 66 Hz on target")
    func issueScenarioOnVRR() {
        let (records, loop) = runLoop(.variable(minimum: hz(48), maximum: hz(144)), cap: 78, frames: 125) { _ in 15 * ms }
        #expect(loop.workCeiling.rate == FrameRate(numerator: 66), "the work is why the rate is below the cap")
        // 1/78 s = 12 820 513 ns < 15 ms: frame 0 is late, held to the cap's cadence.
        #expect(records[0].pacedHz == 78 && records[0].isLate(tolerance: 0))
        // 10⁹ / 15 000 000 = 66.67, so 66 Hz (in 48-144, under 78), from the frame after it.
        let steady = records.dropFirst(1)
        #expect(steady.allSatisfy { $0.pacedHz == 66 })
        #expect(steady.allSatisfy { $0.glassTime == $0.targetTimestamp }, "every frame on its target")
        // 10⁹ / 66 = 15 151 515.15… ns: each slot rounded to the nanosecond.
        #expect(intervals(steady) == [15_151_515, 15_151_516])
    }

    @Test("25 ms under a cap of 48 on 144 Hz: every 4th vblank (36 Hz), not every 6th")
    func fixedDisplay() {
        let records = run(.fixed(hz(144)), cap: 48, frames: 70) { _ in 25 * ms }
        // 144/3 = 48 Hz is 20 833 333 ns < 25 ms ≤ 4/144 s = 27 777 778 ns.
        let steady = records.dropFirst(1)
        #expect(steady.allSatisfy { $0.pacedHz == 36 && $0.glassTime == $0.targetTimestamp })
        #expect(intervals(steady) == [27_777_777, 27_777_778])
        // On the vblanks of the 144 Hz grid from 0: round(v × 10⁹ / 144).
        #expect(steady.allSatisfy { record in
            let v = (record.glassTime * 144 + 500_000_000) / 1_000_000_000
            return (v * 1_000_000_000 + 72) / 144 == record.glassTime
        })
    }

    @Test("17 ms under a cap of 60 on 59.94 Hz: every second vblank, 30000/1001 Hz")
    func ntsc() {
        let records = run(.fixed(FrameRate(numerator: 60000, denominator: 1001)), cap: 60, frames: 60) { _ in 17 * ms }
        // 1001/60000 s = 16 683 333 ns < 17 ms ≤ 2002/60000 s = 33 366 667 ns.
        let steady = records.dropFirst(1)
        #expect(steady.allSatisfy { abs($0.pacedHz - 30000.0 / 1001) < 1e-9 && $0.glassTime == $0.targetTimestamp })
        #expect(intervals(steady) == [33_366_666, 33_366_667])
    }

    @Test("Work drifting up past the rate: 15 ms, then 15.8 ms from 0.5 s: 66 Hz, one late frame, then 63 Hz on target")
    func driftPastTheRate() {
        let records = run(.variable(minimum: hz(48), maximum: hz(144)), cap: 78, frames: 125) { now in
            now < 500 * ms ? 15 * ms : 15_800_000
        }
        // 10⁹ / 15 800 000 = 63.29: 63 Hz. 1/66 s = 15.15 ms < 15.8 ms: the first such frame overruns.
        let after = records.filter { $0.callbackStart >= 500 * ms }
        #expect(after.first?.pacedHz == 66 && after.first?.isLate(tolerance: 0) == true)
        #expect(after.count > 30 && after.dropFirst(1).allSatisfy { $0.pacedHz == 63 && $0.glassTime == $0.targetTimestamp })
    }

    @Test("Lighter work brings the cap back on the first frame it allows: 15 ms for 1 s, then 8 ms")
    func unlearns() {
        let (records, loop) = runLoop(.variable(minimum: hz(48), maximum: hz(144)), cap: 78, frames: 200) { now in
            now < 1_000 * ms ? 15 * ms : 8 * ms
        }
        // 8 ms fits 1/78 s (12.8 ms): the first 8 ms frame is still planned at 66 Hz, every later one at 78.
        let light = records.filter { $0.callbackStart >= 1_000 * ms }
        #expect(loop.workCeiling.rate == nil)
        #expect(light.first?.pacedHz == 66)
        #expect(light.count > 50 && light.dropFirst().allSatisfy { $0.pacedHz == 78 && $0.glassTime == $0.targetTimestamp })
        #expect(records.dropFirst(1).allSatisfy { $0.glassTime == $0.targetTimestamp }, "no frame late after the first")
    }

    @Test("One long frame is the one late frame, the next waits for the work it measured once; work that fits is never slowed")
    func hitchAndFittingWork() {
        let hitch = run(.fixed(hz(60)), cap: 60, frames: 60) { now in now >= 300 * ms && now < 310 * ms ? 30 * ms : 5 * ms }
        // 30 ms needs 2 vblanks of 60 Hz: the frame after the hitch runs at 30 Hz, the one after that at 60 again.
        let late = hitch.indices.filter { hitch[$0].isLate(tolerance: 0) }
        #expect(late.count == 1)
        let slow = hitch.indices.filter { hitch[$0].pacedHz != 60 }
        #expect(slow == late.map { $0 + 1 } && slow.allSatisfy { hitch[$0].pacedHz == 30 })
        // 6.9 ms fits 1/144 s = 6 944 444 ns.
        let fitting = run(.fixed(hz(144)), cap: 144, frames: 144) { _ in 6_900_000 }
        #expect(fitting.allSatisfy { $0.pacedHz == 144 && !$0.isLate(tolerance: 0) })
    }

    /// Fixed 60 Hz behind a swap that queues: presents return at once, the
    /// frame shown on its vblank (as Mesa's vsync swaps on X11 are); the
    /// display's own flips are the truth.
    private func queued(frames: Int, work: @escaping (Nanoseconds) -> Nanoseconds) -> (records: [FrameRecord], flips: [Nanoseconds]) {
        let display = SimulatedDisplay(panel: .fixed(hz(60)))
        var flips: [Nanoseconds] = []
        display.onFlip = { flips.append($0.at) }
        let backend = SimulatedBackend(display: display)
        backend.presentsReturnAtOnce = true
        let game = ScriptedGame(frames: frames)
        game.work = { [unowned backend] _ in work(backend.clock.now) }
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: 60)), backend: backend).run(game)
        return (game.records, flips)
    }

    /// Each frame is submitted half a refresh before its vblank and its
    /// present returns at once, so the next callback starts one and a half
    /// intervals before its own vblank: 25 ms for its work. A 22 ms frame
    /// among 5 ms ones reaches its vblank, as in a plain vsync loop, and
    /// costs no slot; 20 ms every frame eats 3.3 ms of that head start a
    /// frame until a frame is late (the third), and then every second vblank
    /// (30 Hz) holds it, each frame on its target.
    @Test("A path that queues a frame ahead: one 22 ms frame at 60 Hz costs no slot; 20 ms every frame drops to 30 Hz after one late frame")
    func queuedPath() {
        let (hitch, hitchFlips) = queued(frames: 60) { now in now >= 290 * ms && now < 295 * ms ? 22 * ms : 5 * ms }
        #expect(hitch.contains { $0.work == 22 * ms }, "the long frame ran")
        #expect(hitch.allSatisfy { $0.pacedHz == 60 && !$0.isLate(tolerance: 0) })
        let period = Double(1_000_000_000) / 60
        #expect(zip(hitchFlips, hitchFlips.dropFirst()).allSatisfy { abs(Double($1 - $0) - period) <= 1 },
                "every flip one refresh after the one before")
        let (grown, grownFlips) = queued(frames: 60) { now in now >= 300 * ms ? 20 * ms : 5 * ms }
        let late = grown.indices.filter { grown[$0].isLate(tolerance: 0) }
        #expect(late.count == 1)
        guard let first = late.first else { return }
        let after = grown[(first + 1)...]
        #expect(after.count > 20 && after.allSatisfy { $0.pacedHz == 30 })
        #expect(after.allSatisfy { grownFlips[$0.frame] == $0.targetTimestamp }, "on the glass at its target")
        #expect(grown[..<first].allSatisfy { $0.pacedHz == 60 })
    }
}
