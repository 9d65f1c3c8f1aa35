import Testing
@_spi(Programs) @testable import Cadence

/// The first frame a link preferring `fps` plans at time 0.
private func firstFrame(fps: Double, on timing: DisplayTiming) -> DisplayLinkFrame {
    DisplayLink(preferred: FrameRateRange(fps: fps)).nextFrame(now: 0, lastFlip: nil, timing: timing)
}

private let sixty = DisplayTiming.fixed(VsyncGrid(origin: 0, rate: hz(60)))
private let vrr = DisplayTiming.variable(minimum: hz(48), maximum: hz(144))
private let refresh = hz(60).period

@MainActor
@Suite("Presenter: modes and deadlines")
struct PresenterTests {
    @Test func modeFollowsTheDisplayTiming() {
        #expect(PresentMode(for: sixty) == .vsync)
        #expect(PresentMode(for: vrr) == .timed)
        #expect(PresentMode(for: .unsynced(reported: hz(60))) == .timed)
        #expect(PresentMode(for: .unsynced(reported: nil)) == .timed)
    }

    @Test("vsync below the refresh: present half a refresh before the target vblank")
    func vsyncSubmitTime() {
        let frame = firstFrame(fps: 20, on: sixty)
        #expect(frame.targetTimestampNanoseconds == 50 * ms)
        for workEnd in [1 * ms, 30 * ms, 49 * ms] {
            let plan = PresentPlan(for: frame, on: frame.timing, workEndedAt: workEnd, flips: FlipHistory())
            #expect(plan.mode == .vsync)
            #expect(plan.submitAt == 50 * ms - refresh / 2)
        }
    }

    @Test("vsync: a frame whose work ran past its target is held to the link's next cadence slot")
    func lateFrameKeepsTheCadence() {
        let twenty = firstFrame(fps: 20, on: sixty)
        // Every third vblank: the next slot after 50 ms is 100 ms, not the vblank at 66.7 ms.
        #expect(PresentPlan(for: twenty, on: twenty.timing, workEndedAt: 51 * ms, flips: FlipHistory()).submitAt == 100 * ms - refresh / 2)
        #expect(PresentPlan(for: twenty, on: twenty.timing, workEndedAt: 101 * ms, flips: FlipHistory()).submitAt == 150 * ms - refresh / 2)
        // At the full rate every vblank is a slot: the next one.
        let full = firstFrame(fps: 60, on: sixty)
        let grid = VsyncGrid(origin: 0, rate: hz(60))
        #expect(PresentPlan(for: full, on: full.timing, workEndedAt: 20 * ms, flips: FlipHistory()).submitAt == grid.time(at: 2) - refresh / 2)
    }

    @Test("timed: present exactly at the target, never earlier; a late frame at the next slot of the cadence")
    func timedSubmitTime() {
        let variable = firstFrame(fps: 78, on: vrr)
        let unsynced = firstFrame(fps: 78, on: .unsynced(reported: nil))
        for frame in [variable, unsynced] {
            // The first callback starts at 0: slots at round(k × 10⁹ / 78) ns.
            #expect(frame.targetTimestampNanoseconds == 12_820_513)
            let onTime = PresentPlan(for: frame, on: frame.timing, workEndedAt: 1 * ms, flips: FlipHistory())
            #expect(onTime.mode == .timed)
            #expect(onTime.submitAt == 12_820_513)
            let late = PresentPlan(for: frame, on: frame.timing, workEndedAt: 12_820_513 + 3 * ms, flips: FlipHistory())
            #expect(late.submitAt == 25_641_026)
        }
    }

    @Test("timed: work that ended within the tolerance past the target presents at once for it; vsync ignores it")
    func toleranceForTimedPresents() {
        let tolerance: Nanoseconds = 200_000
        for timing in [vrr, DisplayTiming.unsynced(reported: nil)] {
            let frame = firstFrame(fps: 78, on: timing)
            let target = frame.targetTimestampNanoseconds
            // Slots at round(k × 10⁹ / 78): the next after 12_820_513 is 25_641_026.
            for overrun in [1, tolerance] {
                let plan = PresentPlan(for: frame, on: timing, workEndedAt: target + overrun,
                                       flips: FlipHistory(last: target - 12_820_513), tolerance: tolerance)
                #expect(plan.onGlassAt == target && plan.submitAt == target, "overrun \(overrun) ns")
            }
            let beyond = PresentPlan(for: frame, on: timing, workEndedAt: target + tolerance + 1,
                                     flips: FlipHistory(last: target - 12_820_513), tolerance: tolerance)
            // On the VRR panel nothing came within 1/48 s of the last flip (at 0), so
            // it refreshed by itself at 20 833 334 and is busy until 27 777 778.
            #expect(beyond.submitAt == (timing == vrr ? 27_777_778 : 25_641_026))
            // Without a tolerance (virtual time) a nanosecond late is late.
            #expect(PresentPlan(for: frame, on: timing, workEndedAt: target + 1, flips: FlipHistory()).submitAt == 25_641_026)
        }
        // vsync: past the target the vblank is gone whatever the tolerance; every vblank is a slot at 60.
        let full = firstFrame(fps: 60, on: sixty)
        let plan = PresentPlan(for: full, on: full.timing, workEndedAt: full.targetTimestampNanoseconds + 1,
                               flips: FlipHistory(), tolerance: tolerance)
        #expect(plan.onGlassAt == VsyncGrid(origin: 0, rate: hz(60)).time(at: 2))
    }

    @Test("a display that changed after the frame was planned: its first chance at or after the target")
    func replanOnDisplayChange() {
        let frame = firstFrame(fps: 60, on: sixty)
        #expect(frame.targetTimestampNanoseconds == 16_666_667)
        // Now variable refresh: shown when presented, so presented at the target, not half a refresh early.
        let vrrPlan = PresentPlan(for: frame, on: vrr, workEndedAt: 2 * ms, flips: FlipHistory())
        #expect(vrrPlan.mode == .timed && vrrPlan.submitAt == 16_666_667)
        // Now 144 Hz from 1 ms: vblanks at 1 ms + k × 6 944 444.4 ns; the first at or after the target is k = 3.
        let faster = DisplayTiming.fixed(VsyncGrid(origin: 1 * ms, rate: hz(144)))
        let plan144 = PresentPlan(for: frame, on: faster, workEndedAt: 2 * ms, flips: FlipHistory())
        #expect(plan144.onGlassAt == 1 * ms + 20_833_333)
        #expect(plan144.submitAt == 1 * ms + 20_833_333 - 6_944_444 / 2)
    }

    @Test("In simulation, one overrun at 30 FPS on 60 Hz makes one frame late, not every later one")
    func overrunKeepsTheCadenceInSimulation() {
        let game = ScriptedGame(frames: 60)
        // One 40 ms frame, then 20 ms frames: they fit 30 FPS only on the cadence's vblanks.
        game.work = { $0 < 5 ? 5 * ms : $0 == 5 ? 40 * ms : 20 * ms }
        simulate(SimulatedDisplay(panel: .fixed(hz(60))), fps: 30, game: game)
        #expect(game.records.filter { $0.isLate(tolerance: 0) }.map(\.frame) == [5])
        let grid = VsyncGrid(origin: 0, rate: hz(60))
        let vblanks = game.records.map { grid.nearestIndex(to: $0.presentTime) }
        #expect(zip(vblanks, game.records).allSatisfy { grid.time(at: $0) == $1.presentTime })
        // Every other vblank from 2; the overrun, from vblank 10 to 206.7 ms, is held to the cadence's next slot, 14;
        // the frame after it is planned for the 40 ms it measured, 3 vblanks on (17); the 20 ms frames after that
        // every other vblank from there.
        #expect(Array(vblanks.prefix(7)) == [2, 4, 6, 8, 10, 14, 17])
        #expect(zip(vblanks.dropFirst(6), vblanks.dropFirst(7)).allSatisfy { $1 - $0 == 2 }, "presents stay on every other vblank")
    }
}

@MainActor
@Suite("Low framerate compensation, as the display's driver does it")
struct LowFramerateCompensationTests {
    let lfc = LowFramerateCompensation(minimum: hz(48), maximum: hz(144))
    /// 1/144 s rounded down, and 1/48 s rounded up.
    let scanOut: Nanoseconds = 6_944_444, longest: Nanoseconds = 20_833_334

    @Test("Repeats are spaced from the previous frame's time on the glass, cut into the fewest pieces the panel holds")
    func repeatsFromFrameDurations() {
        // After a 25 ms frame (40 FPS): one repeat halfway, then the panel's own refreshes.
        let forty = lfc.hold(from: 0, previousDuration: 25 * ms)
        #expect(forty.planned == 1 && forty.flip(1) == 12_500_000)
        #expect(forty.flip(2) == 12_500_000 + longest)
        // After 50 ms (20 FPS): two, at thirds.
        let twenty = lfc.hold(from: 0, previousDuration: 50 * ms)
        #expect(twenty.planned == 2 && twenty.flip(1) == 16_666_666 && twenty.flip(2) == 33_333_332)
        // Inside the range (60 FPS), or with nothing seen yet: none planned, a refresh every 1/48 s.
        for hold in [lfc.hold(from: 0, previousDuration: 16_666_667), lfc.hold(from: 0, previousDuration: nil)] {
            #expect(hold.planned == 0 && hold.flip(1) == longest && hold.flip(2) == 2 * longest)
        }
        // A frame after a long stall: the pieces never get shorter than a scan-out on a narrow range.
        let narrow = LowFramerateCompensation(minimum: hz(90), maximum: hz(100))
        #expect(narrow.hold(from: 0, previousDuration: 25 * ms).spacing == 10 * ms)
    }

    @Test("A frame presented during a scan-out waits for its end; one presented as a repeat falls due replaces it")
    func flipDuringARepeat() {
        let hold = lfc.hold(from: 0, previousDuration: 25 * ms)
        #expect(hold.shownAt(presentedAt: 3 * ms) == scanOut, "the new frame's own scan-out")
        #expect(hold.shownAt(presentedAt: 12_500_000) == 12_500_000)
        #expect(hold.shownAt(presentedAt: 13 * ms) == 12_500_000 + scanOut)
        #expect(hold.shownAt(presentedAt: 25 * ms) == 25 * ms)
        #expect(hold.repeats(before: 25 * ms) == [12_500_000])
        #expect(hold.repeats(before: 12_500_000) == [])
    }

    @Test("The display's history spaces the repeats: what the link plans from")
    func fromHistory() {
        var flips = FlipHistory()
        #expect(lfc.hold(after: flips) == nil)
        flips.record(100 * ms)
        #expect(lfc.hold(after: flips)?.planned == 0)
        flips.record(125 * ms)
        #expect(flips.lastDuration == 25 * ms && lfc.hold(after: flips)?.flip(1) == 137_500_000)
    }

    @Test("Below the minimum every frame is on time and the panel stays in range, whatever the work", arguments: [
        (47.0, 15.0), (40, 1), (30, 20), (24, 30), (21, 35), (15, 10), (12, 60),
    ])
    func inSimulation(fps: Double, workMilliseconds: Double) {
        let work = TimeUnit.nanoseconds(milliseconds: workMilliseconds)
        let backend = FlipRecordingBackend(SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)),
                                                            fullscreen: true))
        let game = ScriptedGame(frames: 80)
        game.work = { _ in work }
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: fps)), backend: backend).run(game)
        #expect(game.records.allSatisfy { $0.presentTime == $0.targetTimestamp }, "late frames at \(fps) FPS")
        // The driver repeats while the game works: the game presents each frame once.
        #expect(backend.flips.filter { !$0.isRepeat }.count == game.records.count)
        #expect(backend.flips.filter(\.isRepeat).count >= game.records.count - 2)
        let gaps = zip(backend.flips, backend.flips.dropFirst()).map { $1.at - $0.at }
        #expect(gaps.allSatisfy { $0 >= lfc.shortest && $0 <= lfc.longest }, "gaps at \(fps) FPS: \(Set(gaps))")
    }
}

@MainActor
@Suite("The present's lead before a measured vblank")
struct VsyncLeadTests {
    @Test("A backend's lead replaces the half refresh, but never reaches a whole refresh (that would be a vblank early)")
    func leadReplacesHalfRefresh() {
        let grid = VsyncGrid(origin: 0, rate: FrameRate(numerator: 144))
        let link = DisplayLink(preferred: .displayRate)
        let frame = link.nextFrame(now: 0, lastFlip: nil, timing: .fixed(grid))
        let target = frame.targetTimestampNanoseconds
        let period = grid.rate.period
        #expect(PresentPlan(for: frame, on: .fixed(grid), workEndedAt: 0, flips: FlipHistory()).submitAt == target - period / 2)
        #expect(PresentPlan(for: frame, on: .fixed(grid), workEndedAt: 0, flips: FlipHistory(),
                            vsyncLead: period * 3 / 4).submitAt == target - period * 3 / 4)
        #expect(PresentPlan(for: frame, on: .fixed(grid), workEndedAt: 0, flips: FlipHistory(),
                            vsyncLead: 2 * period).submitAt == target - period + 1)
    }
}
