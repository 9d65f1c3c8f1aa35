import Testing
@_spi(Programs) @testable import Cadence

/// Variable refresh in effect is measured from glass times, never assumed:
/// the meter by hand-made glass times, the tracker on the simulated display.
/// Expected values are worked out by hand from the window (30 judgements),
/// the claim (10 off the grid) and the tolerance (0.5 ms).
@MainActor
@Suite("VRR in effect, measured")
struct VRRInEffectTests {
    /// 60 Hz's period rounded to the nanosecond.
    private let period: Nanoseconds = 16_666_667

    @Test("Ten intervals of 20 ms on a 60 Hz grid claim it (3.33 ms off two periods' nearest); 21 whole periods then drop it")
    func intervalsFlipInEffect() {
        var meter = GridIntervalMeter()
        for _ in 0..<9 { meter.add(interval: 20 * ms, period: period) }
        #expect(!meter.isOffGrid && meter.offGrid == 9)
        meter.add(interval: 20 * ms, period: period)
        #expect(meter.isOffGrid && meter.offGrid == 10 && meter.measured == 10)
        // 10 off + 20 on fill the window: still 10 off. The 21st on pushes the first off out.
        for _ in 0..<20 { meter.add(interval: 2 * period, period: period) }
        #expect(meter.isOffGrid && meter.measured == 30)
        meter.add(interval: period, period: period)
        #expect(!meter.isOffGrid && meter.offGrid == 9)
    }

    @Test("The tolerance is inclusive at 0.5 ms; intervals past 8 periods (a pause) are not judged")
    func toleranceAndPauses() {
        var meter = GridIntervalMeter()
        meter.add(interval: 3 * period + 500_000, period: period)
        meter.add(interval: 3 * period - 500_000, period: period)
        #expect(meter.offGrid == 0 && meter.measured == 2)
        meter.add(interval: 3 * period + 500_001, period: period)
        #expect(meter.offGrid == 1)
        meter.add(interval: 9 * period + 5 * ms, period: period)
        #expect(meter.measured == 3)
    }

    @Test("A glass time half a 144 Hz refresh (3.47 ms) from the nearest vblank is off the grid; one 0.4 ms off is on it")
    func glassAgainstGrid() {
        let grid = VsyncGrid(origin: 0, rate: hz(144))
        var meter = GridIntervalMeter()
        meter.add(glass: grid.time(at: 10) - hz(144).period / 2, grid: grid)
        meter.add(glass: grid.time(at: 11) + 400_000, grid: grid)
        #expect(meter.offGrid == 1 && meter.measured == 2)
    }

    private static func requested(range: RefreshRange, modeHz: Double) -> VRRDecision {
        VRRPolicy.decide(VRRFacts(edid: .variable(VariableRefreshRange(range, source: .amdVSDB)), driver: .capable,
                                  modeRate: hz(modeHz), fullscreen: true))
    }

    private static func tracked(_ display: SimulatedDisplay, _ decision: VRRDecision) -> SimulatedBackend {
        let backend = SimulatedBackend(display: display)
        var tracker = VariableRefreshTracker()
        tracker.update(decision: decision, modeRate: display.panel.modeRate)
        backend.variableRefresh = tracker
        return backend
    }

    private static func run(_ backend: SimulatedBackend, fps: Double, frames: Int) -> [FrameRecord] {
        let game = ScriptedGame(frames: frames)
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: fps)), backend: backend).run(game)
        return game.records
    }

    /// At 50 FPS on a 48–144 Hz panel the fixed grid allows 48 (144 / 3). Paced
    /// on it, each frame is presented half a refresh before its vblank and a
    /// VRR panel shows it then, 3.47 ms off the grid: after ten such frames VRR
    /// is in effect and the loop paces at 50, 20 ms apart (0.83 ms off three
    /// periods). The window leaving fullscreen turns VRR off: the first
    /// interval spans the switch (21.53 ms, 0.69 off three periods), then
    /// frames land on vblanks; the 21st on the grid leaves 9 of 30 off, and
    /// the loop is back on the grid at 48 from the next frame.
    @Test("On a VRR panel, glass times off the grid turn VRR in effect, and back on the grid turn it off")
    func simulatedPanelFlipsInEffect() throws {
        let display = SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: true)
        let backend = Self.tracked(display, Self.requested(range: RefreshRange(minHz: 48, maxHz: 144), modeHz: 144))
        #expect(backend.variableRefreshState?.name == "requested")

        let on = Self.run(backend, fps: 50, frames: 40)
        #expect(on.prefix(10).allSatisfy { $0.refreshMode == .fixed && $0.pacedHz == 48 })
        #expect(on.dropFirst(10).allSatisfy { $0.refreshMode == .variable && $0.pacedHz == 50 })
        #expect(on[9].variableRefresh?.name == "in-effect" && on[8].variableRefresh?.name == "requested")
        let variable = on.dropFirst(11)
        #expect(zip(variable, variable.dropFirst()).allSatisfy { $1.glassTime - $0.glassTime == hz(50).period })
        #expect(backend.variableRefreshState?.inEffectEvidence == "30/30 frames off the 144 Hz grid")

        display.isFullscreen = false
        let off = Self.run(backend, fps: 50, frames: 40)
        #expect(off.prefix(22).allSatisfy { $0.refreshMode == .variable })
        #expect(off.dropFirst(22).allSatisfy { $0.refreshMode == .fixed && $0.pacedHz == 48 })
        #expect(off[20].variableRefresh?.name == "in-effect" && off[21].variableRefresh?.name == "requested")
        #expect(off.allSatisfy { $0.glassTime >= $0.targetTimestamp })
    }

    /// What vkms and any fixed display must show: a decision that wrongly
    /// says requested (an EDID range the panel does not honour) never turns
    /// VRR in effect, as every frame lands on a vblank; the loop stays on the
    /// 144 Hz grid at 48, the even rate nearest 50, none early.
    @Test("On a fixed panel a requested VRR never comes in effect")
    func fixedPanelNeverInEffect() {
        let display = SimulatedDisplay(panel: .fixed(hz(144)), fullscreen: true)
        let backend = Self.tracked(display, Self.requested(range: RefreshRange(minHz: 48, maxHz: 144), modeHz: 144))
        let records = Self.run(backend, fps: 50, frames: 120)
        #expect(records.allSatisfy { $0.refreshMode == .fixed && $0.pacedHz == 48 })
        #expect(records.allSatisfy { $0.variableRefresh?.name == "requested" && $0.glassTime >= $0.targetTimestamp })
        #expect(backend.variableRefreshState?.inEffectEvidence == "0/30 frames off the 144 Hz grid")
    }
}
