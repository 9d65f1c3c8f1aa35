@_spi(Programs) import Cadence
import Foundation

/// Issue 3's figures: the display link's own cost per frame, and how long ten
/// simulated minutes at 240 Hz take with a CSV trace.
@MainActor
enum LinkCostBench {
    /// What was measured.
    struct Figures {
        /// Mean wall time of one `DisplayLink.nextFrame` call.
        let nanosecondsPerFrame: Double
        /// Wall time of 10 simulated minutes at 240 Hz, traced to CSV.
        let simulatedTenMinutes: Double
        let frames: Int
    }

    /// Measures the link alone, then a whole traced simulation.
    static func run() throws -> Figures {
        let clock = MonotonicClock()
        // The link alone: plan a million frames on a 240 Hz grid.
        let link = DisplayLink()
        let timing = DisplayTiming.fixed(VsyncGrid(origin: 0, rate: FrameRate(hz: 240)))
        let calls = 1_000_000
        var shown: Nanoseconds? = nil
        var checksum: Nanoseconds = 0
        let linkStart = clock.now
        for _ in 0..<calls {
            let frame = link.nextFrame(now: shown ?? 0, lastFlip: shown, timing: timing)
            shown = frame.targetTimestampNanoseconds
            checksum &+= frame.deltaNanoseconds
        }
        let linkNs = Double(clock.now - linkStart) / Double(calls)
        precondition(checksum > 0)

        // A whole simulation with a trace: 10 minutes at 240 Hz.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-bench-\(getpid()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFile.open(path: path, runStart: 0)
        let client = TracingClient(writer: writer, frames: 240 * 600)
        let loop = FrameLoop(link: DisplayLink(), backend: SimulatedBackend(display: SimulatedDisplay(panel: .fixed(FrameRate(hz: 240)))))
        let simStart = clock.now
        loop.run(client)
        try writer.finish(summary: client.statistics.runSummary)
        let simSeconds = TimeUnit.seconds(clock.now - simStart)
        return Figures(nanosecondsPerFrame: linkNs, simulatedTenMinutes: simSeconds, frames: client.statistics.runSummary.frames)
    }

    /// A minimal game: 1 ms of virtual work, statistics and a trace.
    private final class TracingClient: FrameLoopClient {
        let writer: TraceWriter
        let frames: Int
        var statistics = FrameStatistics()
        var presented = 0
        init(writer: TraceWriter, frames: Int) { self.writer = writer; self.frames = frames }
        func prepareFrame(_ loop: FrameLoop) -> Bool { presented < frames && !BenchStop.requested }
        func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
            loop.doWork(1_000_000)
        }
        func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
            statistics.record(record)
            presented += 1
            try? writer.write(record)
        }
        func idle(_ loop: FrameLoop) -> Bool { false }
    }
}
