import Testing
@testable import Cadence

/// The first frame a link preferring `fps` plans at time 0.
private func firstFrame(fps: Double, on timing: DisplayTiming) -> DisplayLinkFrame {
    DisplayLink(preferred: FrameRateRange(fps: fps)).nextFrame(now: 0, lastShown: nil, timing: timing)
}

private let sixty = DisplayTiming.fixed(VsyncGrid(origin: 0, rate: hz(60)))
private let vrr = DisplayTiming.variable(minimum: hz(48), maximum: hz(144))
private let refresh = hz(60).period

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
            let plan = PresentPlan(for: frame, on: frame.timing, workEndedAt: workEnd, lastFlip: nil)
            #expect(plan.mode == .vsync)
            #expect(plan.submitAt == 50 * ms - refresh / 2)
            #expect(plan.compensation == nil)
        }
    }

    @Test("vsync: a frame whose work ran past its target is held to the link's next cadence slot")
    func lateFrameKeepsTheCadence() {
        let twenty = firstFrame(fps: 20, on: sixty)
        // Every third vblank: the next slot after 50 ms is 100 ms, not the vblank at 66.7 ms.
        #expect(PresentPlan(for: twenty, on: twenty.timing, workEndedAt: 51 * ms, lastFlip: nil).submitAt == 100 * ms - refresh / 2)
        #expect(PresentPlan(for: twenty, on: twenty.timing, workEndedAt: 101 * ms, lastFlip: nil).submitAt == 150 * ms - refresh / 2)
        // At the full rate every vblank is a slot: the next one.
        let full = firstFrame(fps: 60, on: sixty)
        let grid = VsyncGrid(origin: 0, rate: hz(60))
        #expect(PresentPlan(for: full, on: full.timing, workEndedAt: 20 * ms, lastFlip: nil).submitAt == grid.time(at: 2) - refresh / 2)
    }

    @Test("timed: present exactly at the target, never earlier; a late frame at the next slot of the cadence")
    func timedSubmitTime() {
        let variable = firstFrame(fps: 78, on: vrr)
        let unsynced = firstFrame(fps: 78, on: .unsynced(reported: nil))
        for frame in [variable, unsynced] {
            // The first callback starts at 0: slots at round(k × 10⁹ / 78) ns.
            #expect(frame.targetTimestampNanoseconds == 12_820_513)
            let onTime = PresentPlan(for: frame, on: frame.timing, workEndedAt: 1 * ms, lastFlip: nil)
            #expect(onTime.mode == .timed)
            #expect(onTime.submitAt == 12_820_513)
            let late = PresentPlan(for: frame, on: frame.timing, workEndedAt: 12_820_513 + 3 * ms, lastFlip: nil)
            #expect(late.submitAt == 25_641_026)
        }
        #expect(PresentPlan(for: variable, on: variable.timing, workEndedAt: 0, lastFlip: nil).compensation
                == LowFramerateCompensation(minimum: hz(48), maximum: hz(144)))
        #expect(PresentPlan(for: unsynced, on: unsynced.timing, workEndedAt: 0, lastFlip: nil).compensation == nil)
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
                                       lastFlip: target - 12_820_513, tolerance: tolerance)
                #expect(plan.onGlassAt == target && plan.submitAt == target, "overrun \(overrun) ns")
            }
            let beyond = PresentPlan(for: frame, on: timing, workEndedAt: target + tolerance + 1,
                                     lastFlip: target - 12_820_513, tolerance: tolerance)
            #expect(beyond.submitAt == 25_641_026)
            // Without a tolerance (virtual time) a nanosecond late is late.
            #expect(PresentPlan(for: frame, on: timing, workEndedAt: target + 1, lastFlip: nil).submitAt == 25_641_026)
        }
        // vsync: past the target the vblank is gone whatever the tolerance; every vblank is a slot at 60.
        let full = firstFrame(fps: 60, on: sixty)
        let plan = PresentPlan(for: full, on: full.timing, workEndedAt: full.targetTimestampNanoseconds + 1,
                               lastFlip: nil, tolerance: tolerance)
        #expect(plan.onGlassAt == VsyncGrid(origin: 0, rate: hz(60)).time(at: 2))
    }

    @Test("a display that changed after the frame was planned: its first chance at or after the target")
    func replanOnDisplayChange() {
        let frame = firstFrame(fps: 60, on: sixty)
        #expect(frame.targetTimestampNanoseconds == 16_666_667)
        // Now variable refresh: shown when presented, so presented at the target, not half a refresh early.
        let vrrPlan = PresentPlan(for: frame, on: vrr, workEndedAt: 2 * ms, lastFlip: nil)
        #expect(vrrPlan.mode == .timed && vrrPlan.submitAt == 16_666_667)
        // Now 144 Hz from 1 ms: vblanks at 1 ms + k × 6 944 444.4 ns; the first at or after the target is k = 3.
        let faster = DisplayTiming.fixed(VsyncGrid(origin: 1 * ms, rate: hz(144)))
        let plan144 = PresentPlan(for: frame, on: faster, workEndedAt: 2 * ms, lastFlip: nil)
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
        #expect(vblanks.allSatisfy { $0 % 2 == 0 }, "presents stay on every other vblank")
    }
}

@Suite("Low framerate compensation")
struct LowFramerateCompensationTests {
    let lfc = LowFramerateCompensation(minimum: hz(48), maximum: hz(144))

    @Test func repeatsAreEvenlySpacedAndOnlyWhenNeeded() {
        // 40 FPS: one repeat halfway.
        #expect(lfc.nextRepeat(after: 0, now: 1 * ms, before: 25 * ms) == 12_500_000)
        #expect(lfc.nextRepeat(after: 12_500_000, now: 12_500_000, before: 25 * ms) == nil)
        // 20 FPS: two, at thirds.
        #expect(lfc.nextRepeat(after: 0, now: 1 * ms, before: 50 * ms) == 16_666_666)
        #expect(lfc.nextRepeat(after: 16_666_666, now: 16_666_666, before: 50 * ms) == 33_333_333)
        // 60 FPS: inside the range, none.
        #expect(lfc.nextRepeat(after: 0, now: 1 * ms, before: 16_666_667) == nil)
    }

    @Test func aRepeatWhoseSlotPassedDuringWorkIsShownWhenTheWorkEnds() {
        #expect(lfc.nextRepeat(after: 0, now: 20 * ms, before: 30 * ms) == 20 * ms)
    }

    @Test func noRepeatWhenTheNewFrameCouldNotFollowIt() {
        // 20 ms + the panel's shortest 6.9 ms would end after the frame at 25 ms.
        #expect(lfc.nextRepeat(after: 0, now: 20 * ms, before: 25 * ms) == nil)
    }

    @Test("After the panel refreshed by itself, repeats are planned from that refresh")
    func afterSelfRefresh() {
        // Self-refresh at 20.83 ms keeps the panel busy until 27.78 ms; the frame at 30 ms needs no repeat.
        #expect(lfc.nextRepeat(after: 0, now: 21 * ms, before: 30 * ms) == nil)
        // Frame at 47.6 ms: from the self-refresh the gap is 26.8 ms, so one repeat, as soon as the work ends.
        #expect(lfc.nextRepeat(after: 0, now: 35 * ms, before: 47_600_000) == 35 * ms)
    }

    @Test("Below the minimum every frame is on time and the panel stays in range, whatever the work", arguments: [
        (40.0, 1.0), (30, 20), (24, 30), (21, 35), (15, 10), (12, 60),
    ])
    func inSimulation(fps: Double, workMilliseconds: Double) {
        let work = TimeUnit.nanoseconds(milliseconds: workMilliseconds)
        let backend = FlipRecordingBackend(SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)),
                                                            fullscreen: true))
        let game = ScriptedGame(frames: 80)
        game.work = { _ in work }
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: fps)), backend: backend).run(game)
        #expect(game.records.allSatisfy { $0.presentTime == $0.targetTimestamp }, "late frames at \(fps) FPS")
        // Where the work ends before the first even repeat is due, the presenter
        // makes it; later, the panel may have refreshed by itself in its place.
        let presentsPerFrame = Nanoseconds((48 / fps).rounded(.up))
        if work < TimeUnit.nanoseconds(seconds: 1 / fps) / presentsPerFrame {
            #expect(backend.flips.contains { $0.isRepeat })
        }
        if work < lfc.longest / 2 {
            let gaps = zip(backend.flips, backend.flips.dropFirst()).map { $1.at - $0.at }
            #expect(gaps.allSatisfy { $0 >= lfc.shortest && $0 < lfc.longest }, "gaps at \(fps) FPS: \(Set(gaps))")
        }
    }
}

@Suite("The present's lead before a measured vblank")
struct VsyncLeadTests {
    @Test("A backend's lead replaces the half refresh, but never reaches a whole refresh (that would be a vblank early)")
    func leadReplacesHalfRefresh() {
        let grid = VsyncGrid(origin: 0, rate: FrameRate(numerator: 144))
        let link = DisplayLink(preferred: .displayRate)
        let frame = link.nextFrame(now: 0, lastShown: nil, timing: .fixed(grid))
        let target = frame.targetTimestampNanoseconds
        let period = grid.rate.period
        #expect(PresentPlan(for: frame, on: .fixed(grid), workEndedAt: 0, lastFlip: nil).submitAt == target - period / 2)
        #expect(PresentPlan(for: frame, on: .fixed(grid), workEndedAt: 0, lastFlip: nil,
                            vsyncLead: period * 3 / 4).submitAt == target - period * 3 / 4)
        #expect(PresentPlan(for: frame, on: .fixed(grid), workEndedAt: 0, lastFlip: nil,
                            vsyncLead: 2 * period).submitAt == target - period + 1)
    }
}
