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
///
/// Where the machine stays busy between the bursts too (other programs
/// building), the display server completes each swap 7 ms after its vblank,
/// and a present waits for the previous one's completion. Presents go 12.5 ms
/// (three quarters of a refresh) before their vblank, so at 60 each waits
/// 7 - (16.7 - 12.5) = 2.8 ms and returns 9.7 ms before its own vblank, every
/// frame on time, the returns 16.7 ms apart. A try after the slower rate:
/// its first present waits for the frame before (shown one vblank earlier)
/// and returns 19.5 ms after that one's, which had waited for nothing: later
/// than 60 a second allows by more than the 10% margin; its second returns
/// 16.7 ms after the first. One late return is the server's latency, not its
/// throughput: the try keeps up, and the bound is as without it.
@MainActor
@Suite("Load in bursts: the rate is back at the request within each quiet gap")
struct LoadBurstTests {
    static let sixty = FrameRate(numerator: 60)
    static let burst: Nanoseconds = 1 * s
    static let every: Nanoseconds = 3 * s

    static func busy(_ t: Nanoseconds) -> Bool { t >= 1 * s && (t - 1 * s) % every < burst }

    /// Runs `limit` through five bursts; every record.
    func run(_ limit: FrameRateLimit, seed: UInt64, workToo: Bool, completionLatency: Nanoseconds = 0) -> [FrameRecord] {
        let backend = SoftwareSwapBackend(refresh: Self.sixty, seed: seed) { t in Self.busy(t) ? 40 * ms : 2 * ms }
        backend.completionLatency = completionLatency
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
        check(limit, workToo: workToo, completionLatency: 0)
    }

    @Test("The same with the display server completing each swap 7 ms after its vblank throughout (a machine that stays busy)",
          arguments: [(FrameRateLimit.displayRate, 60.0), (.cap(30), 30), (.adaptive, 60)])
    func backWithinTheGapServerLate(_ limit: (FrameRateLimit, Double)) {
        check(limit, workToo: false, completionLatency: 7 * ms)
    }

    func check(_ limit: (FrameRateLimit, Double), workToo: Bool, completionLatency: Nanoseconds) {
        for seed: UInt64 in [5, 6] {
            let records = run(limit.0, seed: seed, workToo: workToo, completionLatency: completionLatency)
            let back = recoveries(records, at: limit.1)
            #expect(back.allSatisfy { $0.map { $0 <= 1_500 * ms } ?? false },
                    "\(limit.0), seed \(seed): back \(back.map { $0.map { "\(Double($0) / 1e9) s" } ?? "never" }) after each burst")
            // The bursts really held the rate down, for the reason the burst gives.
            let busyFrames = records.filter { Self.busy($0.callbackStart) && ($0.callbackStart - 1 * s) % Self.every >= 500 * ms }
            #expect(busyFrames.contains { $0.pacedHz < limit.1 && (workToo || $0.rateReason.name == "presents") })
        }
    }
}
