import Testing
@_spi(Programs) @testable import Cadence

/// Work that grows and shrinks in steps, judged on the glass. Expected values
/// from first principles: the simulator shows a frame at the first vblank at
/// or after its present and models no cost beyond the work, so on a fixed
/// display of refresh R work `w` at a request of every s-th vblank is shown
/// every n = max(s, ⌈w·R⌉) vblanks, the fastest even rate it allows (with the
/// adaptive limit, the work plus 15% when the rate drops and plus 30% before
/// it climbs). The loop measures each frame's work, so the frame planned
/// after the first frame of new work runs at the rate that work allows: at
/// most that first frame is off (late when the work grew, at the old interval
/// when it shrank), every later one is n vblanks after the one before and on
/// its target.
@MainActor
@Suite("The work's rate follows the work both ways")
struct WorkStepTests {
    /// The sample's scenario: 1 s each of 5, 20, 5, 40, 16.5 and 16.7 ms of work per frame.
    static let scenario: [(Double, Double)] = [(0, 5), (1, 20), (2, 5), (3, 40), (4, 16.5), (5, 16.7)]

    /// Runs `schedule` (seconds, ms of work from then on) on `display` at
    /// `limit` until `end`; every record with the work it did.
    static func run(_ schedule: [(Double, Double)], until end: Nanoseconds,
                    on display: SimulatedDisplay = SimulatedDisplay(panel: .fixed(hz(60))),
                    limit: FrameRateLimit = .displayRate) -> [(record: FrameRecord, work: Nanoseconds)] {
        let backend = SimulatedBackend(display: display)
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

    /// The indices of the frames whose callback started in second `k`.
    static func second(_ k: Int, of frames: [(record: FrameRecord, work: Nanoseconds)]) -> [Int] {
        frames.indices.filter { frames[$0].record.callbackStart >= Nanoseconds(k) * s
            && frames[$0].record.callbackStart < Nanoseconds(k + 1) * s }
    }

    @Test("spinning-sprite --simulate-display fixed:60 --work-schedule 0:5,1:20,2:5,3:40,4:16.5,5:16.7 (and at --fps 30, and adaptive): after each change at most one transition frame, then n vblanks apart, on target",
          arguments: [
              // ⌈w·60⌉ for 5, 20, 5, 40, 16.5, 16.7 ms: 1, 2, 1, 3, 1, 2 (16.5 ms fits 16.667; 16.7 does not).
              (FrameRateLimit.displayRate, [1, 2, 1, 3, 1, 2]),
              // Every second vblank at least: 20 ms fits 33.333 ms, 40 ms needs 3 (50 ms).
              (.cap(30), [2, 2, 2, 3, 2, 2]),
              // Adaptive: a drop holds the work + 15%, a climb needs + 30%: 5 ms → 6.5 ms (1); 20 → 23 (2);
              // 40 → 46 (3); 16.5 → 21.45 (2, a climb from 3); 16.7 overruns no interval of 2 vblanks, nor climbs.
              (.adaptive, [1, 2, 1, 3, 2, 2]),
          ] as [(FrameRateLimit, [Int64])])
    func sampleScenario(limit: FrameRateLimit, vblanks: [Int64]) {
        let frames = Self.run(Self.scenario, until: 6 * s, limit: limit)
        for k in 0..<6 {
            let segment = Self.second(k, of: frames)
            // From the second frame of each second: n vblanks after the frame before, to the nanosecond a vblank
            // round(v × 10⁹ / 60) is rounded to.
            let apart = segment.dropFirst().map { i in
                (frames[i].record.glassTime - frames[i - 1].record.glassTime, vblanks[k] * s / 60)
            }
            #expect(segment.count > 15 && apart.allSatisfy { abs($0.0 - $0.1) <= 1 },
                    "second \(k): \(vblanks[k]) vblanks apart expected, got \(Set(apart.map(\.0)))")
            let late = segment.dropFirst().filter { frames[$0].record.glassTime != frames[$0].record.targetTimestamp }
            #expect(late.isEmpty, "second \(k): frames \(late) off their targets")
        }
        // Each a vblank, round(k × 10⁹ / 60): off a multiple of 10⁹ / 60 by at most half a nanosecond.
        #expect(frames.allSatisfy { ($0.record.glassTime * 60 + 30) % 1_000_000_000 <= 60 }, "glass on the 60 Hz grid")
    }

    @Test("The same scenario fullscreen on a 48-144 Hz VRR panel: from each second's second frame, the whole hertz the work allows, on target")
    func sampleScenarioOnVRR() {
        let display = SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: true)
        let frames = Self.run(Self.scenario, until: 6 * s, on: display)
        // ⌊10⁹ / w⌋ Hz, at most 144: 5 ms → 144; 20 → 50; 40 → 25 (below the panel: the driver shows each twice);
        // 16.5 → 60 (60.6); 16.7 → 59 (59.9).
        let rates: [Double] = [144, 50, 144, 25, 60, 59]
        for k in 0..<6 {
            let segment = Self.second(k, of: frames)
            let off = segment.dropFirst().filter {
                frames[$0].record.pacedHz != rates[k] || frames[$0].record.glassTime != frames[$0].record.targetTimestamp
            }
            #expect(segment.count > 15 && off.isEmpty,
                    "second \(k): \(rates[k]) Hz on target expected; off: \(off.map { (frames[$0].record.pacedHz, frames[$0].record.glassTime - frames[$0].record.targetTimestamp) })")
            // Where the frame before followed its own by no more than the panel's longest interval (1/48 s), the
            // driver repeated nothing and the frame is one interval of the rate after it.
            let period = Nanoseconds((1e9 / rates[k]).rounded())
            let uneven = segment.dropFirst(2).filter { i in
                let before = frames[i - 1].record.glassTime - frames[i - 2].record.glassTime
                let gap = frames[i].record.glassTime - frames[i - 1].record.glassTime
                return before <= s / 48 && abs(gap - period) > 1
            }
            #expect(uneven.isEmpty, "second \(k): intervals other than \(period) ns at \(uneven)")
        }
    }
}
