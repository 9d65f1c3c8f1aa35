import Testing
@testable import Cadence

@Suite("Variable refresh in simulation")
struct VariableRefreshTests {
    private func vrr(fullscreen: Bool) -> SimulatedDisplay {
        SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: fullscreen)
    }

    @Test func activeVRRPresentsAtAnyRateInRange() {
        let game = ScriptedGame(frames: 100)
        simulate(vrr(fullscreen: true), fps: 78, game: game)
        #expect(game.records.allSatisfy { $0.effectiveHz == 78 && $0.refreshMode == .variable })
        #expect(game.records.allSatisfy { $0.presentTime == $0.targetTimestamp })
        let intervals = zip(game.records, game.records.dropFirst()).map { $1.presentTime - $0.presentTime }
        #expect(intervals.allSatisfy { abs($0 - hz(78).period) <= 1 })
    }

    @Test func windowedVRRPacesAsFixed() {
        let game = ScriptedGame(frames: 50)
        simulate(vrr(fullscreen: false), fps: 78, game: game)
        #expect(game.records.allSatisfy { $0.effectiveHz == 72 && $0.refreshMode == .fixed })
    }

    @Test("Below the panel's minimum, LFC repeats keep every frame on time")
    func lowFramerateCompensation() {
        for fps in [40.0, 30, 25, 20] {
            let game = ScriptedGame(frames: 100)
            simulate(vrr(fullscreen: true), fps: fps, game: game)
            #expect(game.records.allSatisfy { $0.effectiveHz == fps })
            #expect(game.records.allSatisfy { $0.presentTime == $0.targetTimestamp }, "late frames at \(fps) FPS")
        }
    }

    @Test("Without repeats, the panel's own self-refresh makes 40 FPS frames late")
    func withoutLFCFramesAreLate() {
        let display = vrr(fullscreen: true)
        var late = 0
        for k in 1...50 {
            let target = Nanoseconds(k) * 25 * ms
            if display.present(at: target) > target { late += 1 }
        }
        #expect(late > 25)
    }
}
