import Testing
@_spi(Programs) @testable import Cadence

/// A machine busy one second in every three, in virtual time: during each busy
/// second the display server copies a frame in 40 ms (presents return that
/// far apart, 25 a second) and, unless only the server is starved, another process takes
/// the core for a while in most frames (the game's work measures 2 to 45 ms);
/// between the bursts the work is 2 ms and a copy 2 ms. What the work allows
/// and what the present path reaches are learned in each burst, and both must
/// be unlearned within each two-second gap, leaving half a second at least at
/// the request. Expected rates worked out from the display: 60 Hz, its even
/// rates 60/n, so a request of 30 runs every second vblank, and presents
/// reaching 25 a second hold the link at 20.
@MainActor
@Suite("Load in bursts: the rate is back at the request within each quiet gap")
struct LoadBurstTests {
    static let sixty = FrameRate(numerator: 60)
    static let burst: Nanoseconds = 1 * s
    static let every: Nanoseconds = 3 * s

    static func busy(_ t: Nanoseconds) -> Bool { t >= 1 * s && (t - 1 * s) % every < burst }

    /// Runs `limit` through five bursts; every record.
    func run(_ limit: FrameRateLimit, seed: UInt64, workToo: Bool) -> [FrameRecord] {
        let backend = SoftwareSwapBackend(refresh: Self.sixty, seed: seed) { t in Self.busy(t) ? 40 * ms : 2 * ms }
        let loop = FrameLoop(link: DisplayLink(jitterTolerance: 200_000), backend: backend)
        loop.rateLimit = limit
        var random = SeededGenerator(seed: seed &+ 1)
        let game = ScriptedGame(frames: Int.max)
        game.work = { _ in
            workToo && Self.busy(backend.clock.now) ? Nanoseconds.random(in: 2 * ms...45 * ms, using: &random) : 2 * ms
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

    @Test("Back at the request within 1.5 s of each burst's end: the display's rate, a cap of 30, adaptive; the server starved alone, or with the game's core",
          arguments: [(FrameRateLimit.displayRate, 60.0), (.cap(30), 30), (.adaptive, 60)], [false, true])
    func backWithinTheGap(_ limit: (FrameRateLimit, Double), workToo: Bool) {
        for seed: UInt64 in [5, 6] {
            let records = run(limit.0, seed: seed, workToo: workToo)
            let back = recoveries(records, at: limit.1)
            #expect(back.allSatisfy { $0.map { $0 <= 1_500 * ms } ?? false },
                    "\(limit.0), seed \(seed): back \(back.map { $0.map { "\(Double($0) / 1e9) s" } ?? "never" }) after each burst")
            // The bursts really held the rate down, for the reason the burst gives.
            let busyFrames = records.filter { Self.busy($0.callbackStart) && ($0.callbackStart - 1 * s) % Self.every >= 500 * ms }
            #expect(busyFrames.contains { $0.pacedHz < limit.1 && (workToo || $0.rateReason.name == "presents") })
        }
    }
}
