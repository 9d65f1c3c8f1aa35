import Testing
@_spi(Programs) @testable import Cadence

/// A game that works a fixed CPU time a frame, for a number of frames.
private final class SteadyGame: FrameLoopClient {
    let work: Nanoseconds
    let frames: Int
    var records: [FrameRecord] = []

    init(work: Nanoseconds, frames: Int) {
        self.work = work
        self.frames = frames
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool { records.count < frames }
    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) { loop.doWork(work) }
    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) { records.append(record) }
}

@Suite("What a frame costs the loop's thread")
struct FrameCPUTests {
    @Test("Each frame carries its work's CPU time beside its pacing's: a virtual wait costs none, the work all of its time")
    @MainActor func workBesidePacing() {
        let display = SimulatedDisplay(panel: .fixed(hz(60)), fullscreen: true)
        let backend = SimulatedBackend(display: display)
        backend.measuresCPU = true
        let game = SteadyGame(work: 4_000_000, frames: 60)
        FrameLoop(link: DisplayLink(), backend: backend).run(game)
        #expect(game.records.count == 60)
        let period = FrameRate(hz: 60).period
        for record in game.records.dropFirst(2) {
            // Only the scripted work costs CPU; its turn is one refresh of wall time.
            let cpu = record.cpu ?? FrameCPU(work: -1, pacing: -1, loop: -1, span: -1)
            let offPeriod: Nanoseconds = abs(cpu.span - period)
            #expect(cpu.work == 4_000_000 && cpu.pacing == 0 && cpu.loop == 4_000_000)
            #expect(offPeriod <= 1, "frame \(record.frame): \(cpu.span) ns")
        }
        var statistics = FrameStatistics()
        for record in game.records { statistics.record(record) }
        // 4 ms of a 16.667 ms refresh: 24.0% of a core.
        #expect(statistics.runSummary.line.contains(
            ", cpu a frame: work 4.000 ms, pacing 0.000 ms (0.0% of a core), loop 4.000 ms (24.0% of a core); glass times"))
    }

    @Test("Without a CPU clock frames carry no CPU figures, and the summary line says none")
    @MainActor func noClockNoFigures() {
        let display = SimulatedDisplay(panel: .fixed(hz(60)), fullscreen: true)
        let game = SteadyGame(work: 4_000_000, frames: 10)
        FrameLoop(link: DisplayLink(), backend: SimulatedBackend(display: display)).run(game)
        #expect(game.records.allSatisfy { $0.cpu == nil })
        var statistics = FrameStatistics()
        for record in game.records { statistics.record(record) }
        #expect(!statistics.runSummary.line.contains("cpu"))
    }
}
