import Testing
@testable import Cadence

/// A machine busy one second in every three, in virtual time: during each busy
/// second another process takes the core for a while in most frames (the
/// game's work measures 2 to 45 ms) and the display server copies a frame in
/// 30 ms (presents return that far apart); between the bursts the work is
/// 2 ms and a copy 2 ms. Both the work's share of the rate ceiling and the
/// present path's are learned in each burst, and both must be unlearned within
/// each two-second gap. Expected rates worked out from the display: 60 Hz,
/// its even rates 60/n, so a request of 30 runs every second vblank.
@MainActor
@Suite("Load in bursts: the rate is back at the request within each quiet gap")
struct LoadBurstTests {
    static let sixty = FrameRate(numerator: 60)
    static let burst: Nanoseconds = 1 * s
    static let every: Nanoseconds = 3 * s

    static func busy(_ t: Nanoseconds) -> Bool { t >= 1 * s && (t - 1 * s) % every < burst }

    /// Runs `limit` through five bursts; every record.
    func run(_ limit: FrameRateLimit, seed: UInt64) -> [FrameRecord] {
        let backend = SoftwareSwapBackend(refresh: Self.sixty, seed: seed) { t in Self.busy(t) ? 30 * ms : 2 * ms }
        let loop = FrameLoop(link: DisplayLink(jitterTolerance: 200_000), backend: backend)
        loop.rateLimit = limit
        var random = SeededGenerator(seed: seed &+ 1)
        let game = ScriptedGame(frames: Int.max)
        game.work = { _ in
            Self.busy(backend.clock.now) ? Nanoseconds.random(in: 2 * ms...45 * ms, using: &random) : 2 * ms
        }
        game.beforeFrame = { loop, now in if now >= 16 * s + 1 * s { loop.link.invalidate() } }
        loop.run(game)
        return game.records
    }

    /// How long after each burst's end the frames ran at `rate`, on time, for the rest of the gap.
    func recoveries(_ records: [FrameRecord], at rate: Double) -> [Nanoseconds?] {
        (0..<5).map { k in
            let end = 1 * s + Nanoseconds(k) * Self.every + Self.burst, next = end + Self.every - Self.burst
            // Frames begun in the gap, but for the last before the next burst (its present may meet it).
            let gap = records.filter { $0.callbackStart >= end && $0.callbackStart < next - 50 * ms }
            guard let lastOff = gap.lastIndex(where: { $0.pacedHz != rate || $0.isLate() }) else { return 0 }
            return lastOff + 1 < gap.count ? gap[lastOff + 1].callbackStart - end : nil
        }
    }

    @Test("Back at the request within a second of each burst's end: the display's rate, a cap of 30, adaptive",
          arguments: [(FrameRateLimit.displayRate, 60.0), (.cap(30), 30), (.adaptive, 60)], [UInt64(5), 6])
    func backWithinTheGap(_ limit: (FrameRateLimit, Double), seed: UInt64) {
        let records = run(limit.0, seed: seed)
        let back = recoveries(records, at: limit.1)
        #expect(back.allSatisfy { $0.map { $0 <= 1 * s } ?? false },
                "\(limit.0), seed \(seed): back \(back.map { $0.map { "\(Double($0) / 1e9) s" } ?? "never" }) after each burst")
        // The bursts really held the rate down: the test sees the rates fall.
        let busyFrames = records.filter { Self.busy($0.callbackStart) && ($0.callbackStart - 1 * s) % Self.every >= 500 * ms }
        #expect(busyFrames.contains { $0.pacedHz < limit.1 })
    }
}
