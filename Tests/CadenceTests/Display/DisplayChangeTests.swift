import Testing
@_spi(Programs) @testable import Cadence

/// Display changes mid-run: the link re-snaps at the next callback and the
/// cadence hitches by at most one frame.
@MainActor
@Suite("Display changes in virtual time")
struct DisplayChangeTests {
    /// Checks the frames around each change: every frame lands on its target
    /// except at most one per change, and no gap between two shown frames is
    /// longer than the old interval plus the new one.
    private func expectAtMostOneFrameOfHitch(_ records: [FrameRecord], changes: Int,
                                             sourceLocation: SourceLocation = #_sourceLocation) {
        let late = records.filter { $0.presentTime != $0.targetTimestamp }
        #expect(late.count <= changes, "late frames: \(late.map(\.frame))", sourceLocation: sourceLocation)
        for (a, b) in zip(records, records.dropFirst()) {
            let allowed = Nanoseconds(1e9 / a.pacedHz) + Nanoseconds(1e9 / b.pacedHz) + 1
            #expect(b.presentTime - a.presentTime <= allowed,
                    "gap before frame \(b.frame): \(b.presentTime - a.presentTime) ns", sourceLocation: sourceLocation)
        }
    }

    /// The runs of equal values in `values`, in order.
    private func runs<T: Equatable>(_ values: [T]) -> [T] {
        values.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }

    @Test("Refresh 60 Hz → unknown (0 Hz) → 144 Hz: timer pacing in between, re-snapped at once")
    func refreshToAndFromUnknown() {
        let game = ScriptedGame(frames: 400)
        let display = SimulatedDisplay(panel: .fixed(hz(60)), changes: [
            (at: 1_000 * ms, panel: .unknown), (at: 2_000 * ms, panel: .fixed(hz(144))),
        ])
        simulate(display, fps: 0, game: game)
        #expect(runs(game.records.map(\.refreshMode)) == [.fixed, .none, .fixed])
        #expect(runs(game.records.map(\.pacedHz)) == [60, 144])
        let firstAfterUnknown = game.records.first { $0.callbackStart >= 1_000 * ms }!
        #expect(firstAfterUnknown.refreshMode == .none)
        let firstAfter144 = game.records.first { $0.callbackStart >= 2_000 * ms + hz(60).period }!
        #expect(firstAfter144.pacedHz == 144 && firstAfter144.refreshMode == .fixed)
        expectAtMostOneFrameOfHitch(game.records, changes: 2)
    }

    @Test("A 40 FPS cap on 120 Hz stays 40 when the rate becomes unknown, and 30 on a 60 Hz panel")
    func capThroughUnknown() {
        let game = ScriptedGame(frames: 150)
        let display = SimulatedDisplay(panel: .fixed(hz(120)), changes: [
            (at: 1_000 * ms, panel: .unknown), (at: 2_000 * ms, panel: .fixed(hz(60))),
        ])
        simulate(display, fps: 40, game: game)
        #expect(runs(game.records.map(\.pacedHz)) == [40, 30])
        #expect(runs(game.records.map(\.refreshMode)) == [.fixed, .none, .fixed])
        expectAtMostOneFrameOfHitch(game.records, changes: 2)
    }

    @Test("Fullscreen toggles on a 48–144 Hz VRR panel: 78 FPS is 72 windowed, 78 fullscreen")
    func fullscreenToggles() {
        let game = ScriptedGame(frames: 300)
        let display = SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: false)
        game.beforeFrame = { _, now in display.isFullscreen = now >= 1_000 * ms && now < 2_000 * ms }
        simulate(display, fps: 78, game: game)
        #expect(runs(game.records.map(\.pacedHz)) == [72, 78, 72])
        #expect(runs(game.records.map(\.refreshMode)) == [.fixed, .variable, .fixed])
        // The first callback after each toggle already paces at the new rate.
        let toggledOn = game.records.first { $0.callbackStart >= 1_000 * ms }!
        #expect(toggledOn.pacedHz == 78)
        let toggledOff = game.records.first { $0.callbackStart >= 2_000 * ms }!
        #expect(toggledOff.pacedHz == 72)
        expectAtMostOneFrameOfHitch(game.records, changes: 2)
    }

    @Test("The window moves from a 60 Hz display to a fullscreen VRR one and back to 59.94 Hz")
    func movesBetweenDisplays() {
        let game = ScriptedGame(frames: 400)
        let display = SimulatedDisplay(panel: .fixed(hz(60)), fullscreen: true, changes: [
            (at: 1_000 * ms, panel: .variable(minimum: hz(40), maximum: hz(165))),
            (at: 2_000 * ms, panel: .fixed(hz(59.94))),
        ])
        simulate(display, fps: 100, game: game)
        #expect(runs(game.records.map(\.pacedHz)) == [60, 100, 59.94])
        #expect(runs(game.records.map(\.refreshMode)) == [.fixed, .variable, .fixed])
        expectAtMostOneFrameOfHitch(game.records, changes: 2)
        // Target-driven motion is one straight line through both moves: a game
        // advancing by each delta is always exactly at its frame's target.
        #expect(zip(game.frames, game.frames.dropFirst()).allSatisfy {
            $1.targetTimestampNanoseconds - $0.targetTimestampNanoseconds == $1.deltaNanoseconds
        })
    }
}
