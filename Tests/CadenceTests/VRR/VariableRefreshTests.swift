import Testing
@_spi(Programs) @testable import Cadence

@MainActor
@Suite("Variable refresh in simulation")
struct VariableRefreshTests {
    private func vrr(fullscreen: Bool) -> SimulatedDisplay {
        SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: fullscreen)
    }

    @Test func activeVRRPresentsAtAnyRateInRange() {
        let game = ScriptedGame(frames: 100)
        simulate(vrr(fullscreen: true), fps: 78, game: game)
        #expect(game.records.allSatisfy { $0.pacedHz == 78 && $0.refreshMode == .variable })
        #expect(game.records.allSatisfy { $0.presentTime == $0.targetTimestamp })
        let intervals = zip(game.records, game.records.dropFirst()).map { $1.presentTime - $0.presentTime }
        #expect(intervals.allSatisfy { abs($0 - hz(78).period) <= 1 })
    }

    @Test func windowedVRRPacesAsFixed() {
        let game = ScriptedGame(frames: 50)
        simulate(vrr(fullscreen: false), fps: 78, game: game)
        #expect(game.records.allSatisfy { $0.pacedHz == 72 && $0.refreshMode == .fixed })
    }

    @Test("Below the panel's minimum, LFC repeats keep every frame on time")
    func lowFramerateCompensation() {
        for fps in [40.0, 30, 25, 20] {
            let game = ScriptedGame(frames: 100)
            simulate(vrr(fullscreen: true), fps: fps, game: game)
            #expect(game.records.allSatisfy { $0.pacedHz == fps })
            #expect(game.records.allSatisfy { $0.presentTime == $0.targetTimestamp }, "late frames at \(fps) FPS")
        }
    }

    @Test("The panel repeats by itself: presents every 25 ms are shown at once once its driver has seen one frame's duration")
    func driverRepeats() {
        let display = vrr(fullscreen: true)
        var repeats: [Nanoseconds] = []
        display.onFlip = { if $0.isRepeat { repeats.append($0.at) } }
        let shown = (1...50).map { display.present(at: Nanoseconds($0) * 25 * ms) }
        // The second frame: nothing predicted, so the panel refreshed by itself
        // 1/48 s after the first (20.83 ms) and was busy for 1/144 s.
        #expect(shown[1] == 25 * ms + 20_833_334 + 6_944_444)
        // From then on one repeat between frames, and every frame on time.
        #expect(zip(shown, 1...50).dropFirst(2).allSatisfy { $0 == Nanoseconds($1) * 25 * ms })
        #expect(repeats.count >= 47)
        #expect(repeats.suffix(10).allSatisfy { ($0 - 12_500_000) % (25 * ms) == 0 }, "halfway between frames")
    }
}
