import Testing
@_spi(Programs) @testable import Cadence

/// One long frame (a hitch) among light work. The loop cannot tell it from
/// work that grew: it plans the next frame for the work it just measured, so
/// a hitch costs its own late frame and one longer interval after it, and
/// the next frame's light work brings the rate back. Expected values by hand
/// from the simulator's model (a frame shown at the first vblank at or after
/// its present, no cost beyond the work).
@MainActor
@Suite("A hitch costs one late frame and one longer interval, then the rate is back")
struct HitchTests {
    /// `light` ms of work per frame, `hitch` ms once from `at` seconds, on `display` at `limit` for 5 s.
    static func run(light: Double, hitch: Double, at: Double, on display: SimulatedDisplay,
                    limit: FrameRateLimit) -> [FrameRecord] {
        let backend = SimulatedBackend(display: display)
        let loop = FrameLoop(link: DisplayLink(), backend: backend)
        loop.rateLimit = limit
        let game = ScriptedGame(frames: Int.max)
        var hitched = false
        game.work = { _ in
            let hitchNow = !hitched && backend.clock.now >= TimeUnit.nanoseconds(seconds: at)
            hitched = hitched || hitchNow
            return TimeUnit.nanoseconds(milliseconds: hitchNow ? hitch : light)
        }
        game.beforeFrame = { loop, now in if now >= 5 * s { loop.link.invalidate() } }
        loop.run(game)
        return game.records
    }

    @Test("Fixed 60 Hz, 2 ms of work and one 50 ms hitch at 2 s, at the display's rate and adaptive",
          arguments: [
              // 50 ms needs ⌈50 · 60 / 1000⌉ = 3 vblanks: the frame after the hitch is paced at 20 Hz.
              (FrameRateLimit.displayRate, 3 as Int64),
              // Adaptive keeps 15%: 57.5 ms, 4 vblanks (15 Hz); 2 ms + 30% = 2.6 ms climbs back to 60 at once.
              (.adaptive, 4),
          ] as [(FrameRateLimit, Int64)])
    func sixtyHertz(limit: FrameRateLimit, vblanks: Int64) throws {
        let records = Self.run(light: 2, hitch: 50, at: 2, on: SimulatedDisplay(panel: .fixed(hz(60))), limit: limit)
        let late = records.indices.filter { records[$0].isLate(tolerance: 0) }
        #expect(late.count == 1, "only the hitch is late: \(late)")
        let h = try #require(late.first)
        #expect(records[h].work == 50 * ms)
        // The frame after it: planned for 50 ms of work, `vblanks` after the hitch, on its target.
        let next = records[h + 1]
        #expect(next.pacedHz == 60 / Double(vblanks))
        #expect(abs(next.glassTime - records[h].glassTime - vblanks * s / 60) <= 1)
        // And the frame after that at 60 again, one vblank on: a single longer interval.
        #expect(records[(h + 2)...].allSatisfy { $0.pacedHz == 60 })
        #expect(abs(records[h + 2].glassTime - next.glassTime - s / 60) <= 1)
        #expect(records.count > 250 && records.indices.filter { records[$0].pacedHz != 60 } == [h + 1])
    }

    @Test("Adaptive, fullscreen on a 48-144 Hz VRR panel, 4 ms of work and one 30 ms hitch at 3 s")
    func variableRefresh() throws {
        let display = SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: true)
        let records = Self.run(light: 4, hitch: 30, at: 3, on: display, limit: .adaptive)
        let late = records.indices.filter { records[$0].isLate(tolerance: 0) }
        #expect(late.count == 1, "only the hitch is late: \(late)")
        let h = try #require(late.first)
        // 30 ms + 15% = 34.5 ms: 28 Hz for the frame after (10⁹ / 34.5 ms = 28.99); 4 ms + 30% = 5.2 ms fits 144.
        #expect(records[h + 1].pacedHz == 28)
        #expect(records.indices.filter { records[$0].pacedHz != 144 } == [h + 1])
    }
}
