import Testing
@_spi(Programs) @testable import Cadence

/// Work that grows and shrinks in steps, at the display's rate on a fixed
/// 60 Hz display, judged on the glass. Expected values from first principles:
/// the simulator shows a frame at the first vblank at or after its present and
/// models no cost beyond the work, so work `w` is shown every
/// n = ⌈w / (1/60 s)⌉ vblanks, the fastest even rate it allows.
@MainActor
@Suite("The work's rate follows the work both ways")
struct WorkStepTests {
    /// Vblanks of the 60 Hz grid from 0 that `w` needs.
    static func vblanks(for w: Nanoseconds) -> Int64 { (w * 60 + 999_999_999) / 1_000_000_000 }

    /// Runs `schedule` (seconds, ms of work from then on) on 60 Hz at `limit`;
    /// every record with the work it did.
    static func run(_ schedule: [(Double, Double)], until end: Nanoseconds,
                    limit: FrameRateLimit = .displayRate) -> [(record: FrameRecord, work: Nanoseconds)] {
        let backend = SimulatedBackend(display: SimulatedDisplay(panel: .fixed(hz(60))))
        let loop = FrameLoop(link: DisplayLink(), backend: backend)
        loop.rateLimit = limit
        let game = ScriptedGame(frames: Int.max)
        game.work = { _ in
            let now = backend.clock.now
            let step = schedule.last { TimeUnit.nanoseconds(seconds: $0.0) <= now } ?? schedule[0]
            return TimeUnit.nanoseconds(milliseconds: step.1)
        }
        game.beforeFrame = { loop, now in if now >= end { loop.link.invalidate() } }
        loop.run(game)
        return game.records.map { ($0, $0.work) }
    }

    @Test("spinning-sprite --simulate-display fixed:60 --work-schedule 0:5,1:20,2:5,3:40,4:16.5,5:16.7: after each change at most one transition frame, then n vblanks apart, on target")
    func sampleScenario() {
        let frames = Self.run([(0, 5), (1, 20), (2, 5), (3, 40), (4, 16.5), (5, 16.7)], until: 6 * s)
        // 5 ms: 1 vblank; 20 ms: 2; 40 ms: 3 (50 ms, one steady cadence); 16.5 ms: 1 (16.667 holds it); 16.7 ms: 2.
        #expect([5, 20, 40, 16.5, 16.7].map { Self.vblanks(for: TimeUnit.nanoseconds(milliseconds: $0)) } == [1, 2, 3, 1, 2])
        for k in 0..<6 {
            let segment = frames.indices.filter {
                frames[$0].record.callbackStart >= Nanoseconds(k) * s && frames[$0].record.callbackStart < Nanoseconds(k + 1) * s
            }
            let n = Self.vblanks(for: frames[segment[0]].work)
            // Every glass time on a vblank of the grid; the first frame of a segment may keep the old interval.
            var apart: [Int64] = []
            for i in segment.dropFirst() where i > 0 {
                let (a, b) = (frames[i - 1].record.glassTime, frames[i].record.glassTime)
                apart.append(((b - a) * 60 + 500_000_000) / 1_000_000_000)
            }
            #expect(apart.allSatisfy { $0 == n }, "second \(k): \(n) vblanks expected, got \(apart)")
            // On target from the third frame: a rise overruns twice before the rate drops (one frame may be a hitch).
            let late = segment.dropFirst(2).filter { frames[$0].record.glassTime != frames[$0].record.targetTimestamp }
            #expect(late.isEmpty, "second \(k): frames \(late) off their targets")
        }
        // Each a vblank, round(k × 10⁹ / 60): off a multiple of 10⁹ / 60 by at most half a nanosecond.
        #expect(frames.allSatisfy { ($0.record.glassTime * 60 + 30) % 1_000_000_000 <= 60 }, "glass on the 60 Hz grid")
    }
}
