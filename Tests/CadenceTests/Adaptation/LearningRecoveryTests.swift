import Testing
@_spi(Programs) @testable import Cadence

/// What the loop learns from real time it unlearns when the evidence is gone,
/// in virtual time. Expected values are worked out from the scenarios: on a
/// 60 Hz display the even rates are 60/n; a present path returning 40 ms
/// apart reaches 25 a second, whose highest even rate is 20 (every third vblank).
@MainActor
@Suite("Learning that recovers")
struct LearningRecoveryTests {
    static let sixty = FrameRate(numerator: 60)

    /// Runs the display rate on a 60 Hz software-swap path whose swap takes
    /// `swapAt(t)`, with `work(t)` a frame, until `end`; every record.
    func run(until end: Nanoseconds, limit: FrameRateLimit = .displayRate, seed: UInt64 = 11,
             work: @escaping (Nanoseconds) -> Nanoseconds = { _ in 1 * ms },
             swapAt: @escaping (Nanoseconds) -> Nanoseconds) -> [FrameRecord] {
        let backend = SoftwareSwapBackend(refresh: Self.sixty, seed: seed, swapAt: swapAt)
        let loop = FrameLoop(link: DisplayLink(jitterTolerance: 200_000), backend: backend)
        loop.rateLimit = limit
        let game = ScriptedGame(frames: Int.max)
        game.work = { _ in work(backend.clock.now) }
        game.beforeFrame = { loop, now in if now >= end { loop.link.invalidate() } }
        loop.run(game)
        return game.records
    }

    @Test("A present path slow for five seconds, then fast: 20 FPS while slow, the display's rate within a try's interval of the end")
    func slowForFiveSeconds() {
        let records = run(until: 12 * s) { t in t < 6 * s ? 40 * ms : 5 * ms }
        let slow = records.filter { $0.callbackStart >= 2 * s && $0.callbackStart < 6 * s }
        // While slow, 20 FPS (reason: the presents) but for the frames trying 60 again: 0.5 s after learning,
        // then 1 s and 2 s apart, each one frame late: two or three in these 4 s.
        let tries = slow.filter { $0.pacedHz != 20 }
        #expect(tries.allSatisfy { $0.pacedHz == 60 } && (2...3).contains(tries.count), "\(tries.map(\.pacedHz))")
        #expect(slow.filter { $0.isLate() }.map(\.frame) == tries.map(\.frame))
        #expect(slow.filter { $0.pacedHz == 20 }.allSatisfy { $0.rateReason.name == "presents" })
        // Fast from 6 s: the next try comes at most 2 s later (and its record
        // within a frame at 20 FPS), after which every frame is at 60, on time.
        let recovered = records.filter { $0.callbackStart >= 6 * s + PresentThroughput.longestProbeWait + 100 * ms }
        #expect(!recovered.isEmpty && recovered.allSatisfy { $0.pacedHz == 60 && !$0.isLate() },
                "\(Set(recovered.map(\.pacedHz))), \(recovered.filter { $0.isLate() }.count) late")
        #expect(recovered.allSatisfy { $0.rateReason == .displayRate })
    }

    @Test("A machine busy one second in every four: back at the display's rate before each busy second", arguments: [3, 4] as [UInt64])
    func burstsOfLoad(seed: UInt64) {
        let records = run(until: 20 * s, seed: seed) { t in t % (4 * s) < 1 * s ? 40 * ms : 5 * ms }
        for k in Int64(1)...4 {
            // Quiet from 4k + 1 s; learned at the latest by its end, tried again
            // 2 s later; up to a frame before the next busy second (whose
            // first slow present may belong to a frame begun just before it).
            let quiet = records.filter {
                $0.callbackStart >= 4 * k * s + 1 * s + PresentThroughput.longestProbeWait + 100 * ms
                    && $0.callbackStart < 4 * (k + 1) * s - 50 * ms
            }
            #expect(!quiet.isEmpty && quiet.allSatisfy { $0.pacedHz == 60 && !$0.isLate() },
                    "seed \(seed), quiet stretch \(k): \(Set(quiet.map(\.pacedHz)))")
        }
    }

    @Test("Adaptive: work of 40 ms for five seconds holds 20 FPS for the work, then 2 ms is back at 60 within a window and a climb")
    func adaptiveAfterHeavyWork() {
        let records = run(until: 10 * s, limit: .adaptive, work: { t in t < 6 * s ? 40 * ms : 2 * ms }) { _ in 1 * ms }
        // 40 ms with the 15% a drop keeps is 46 ms: the highest even rate with
        // an interval that long is 20 (50 ms).
        let heavy = records.filter { $0.callbackStart >= 2 * s && $0.callbackStart < 6 * s }
        #expect(!heavy.isEmpty && heavy.allSatisfy { $0.pacedHz == 20 && $0.rateReason == .work(cost: 40 * ms) },
                "\(Set(heavy.map(\.pacedHz)))")
        // Light from 6 s: 15 light frames at 20 FPS (0.75 s) leave one heavy
        // frame in the window of 16, which a climb ignores; 0.5 s later it
        // climbs straight to 60: by 6 s + 0.75 + 0.5 + a frame (0.05 s).
        let light = records.filter { $0.callbackStart >= 6 * s + 1_300 * ms }
        #expect(!light.isEmpty && light.allSatisfy { $0.pacedHz == 60 && $0.rateReason == .displayRate },
                "\(Set(light.map(\.pacedHz)))")
        // The game's request reads back unchanged throughout.
        #expect(records.allSatisfy { $0.limit == .adaptive })
    }

    /// A 60 Hz frame `i` of a link whose previous present returned at
    /// `previousReturn`; this one returns `after` later, on time or shown a
    /// vblank late, its work and submit done 8 ms before its target.
    func frame(_ i: Int, returned: Nanoseconds, late: Bool) -> FrameRecord {
        let period = Self.sixty.period, target = Nanoseconds(i) * period
        return FrameRecord(frame: i, timestamp: target - period, targetTimestamp: target, presentTime: returned,
                           delta: period, limit: .displayRate, rate: hz(60), refreshMode: .fixed,
                           callbackStart: target - 10 * ms, workEnd: target - 9 * ms, presentSubmit: target - 8 * ms,
                           skippedFrames: 0, glassTime: late ? target + period : target, glassSource: .vblank)
    }

    @Test("A try is two frames, judged by when their presents return at 60 Hz: both 20 ms after the one before: slow; the first 20 ms after (the server late once), the second 16.7 ms: kept up; the first 14 ms, the second 16.7: kept up")
    func twoFrameTry() {
        for (firstGap, gap, keptUp) in [(20 * ms, 20 * ms, false), (20 * ms, 16_666_667, true), (14 * ms, 16_666_667, true)] {
            var throughput = PresentThroughput()
            // Sixteen frames present-bound, returns 20 ms apart: 50 a second learned at frame 15.
            for i in 0..<16 { throughput.observe(frame(i, returned: Nanoseconds(i) * 20 * ms, late: true)) }
            #expect(throughput.sustainableRate == FrameRate(numerator: 50))
            let learnedAt = 15 * 20 * ms
            #expect(throughput.planned(at: learnedAt + PresentThroughput.firstProbeWait - 1)?.rate == FrameRate(numerator: 50))
            // The try: two frames planned with no ceiling, then the ceiling again until they are judged.
            let start = learnedAt + PresentThroughput.firstProbeWait
            #expect(throughput.planned(at: start) == nil && throughput.planned(at: start + 1) == nil)
            #expect(throughput.planned(at: start + 2)?.rate == FrameRate(numerator: 50))
            // The frame before the try returned at `start`; the first try frame `firstGap`
            // later and on time; the second `gap` after it.
            var before = frame(200, returned: start, late: false)
            before.callbackStart = start - 1
            throughput.observe(before)
            var first = frame(201, returned: start + firstGap, late: false)
            var second = frame(202, returned: start + firstGap + gap, late: false)
            first.callbackStart = start
            second.callbackStart = start + 1
            throughput.observe(first)
            #expect(throughput.sustainableRate != nil, "one frame is not enough")
            throughput.observe(second)
            // 20 ms is more than 16.7 ms and 10%: still slow where both came back that late.
            #expect((throughput.sustainableRate == nil) == keptUp, "gaps \(firstGap), \(gap)")
            if !keptUp {
                // The wait doubled: the next try a second after that present returned.
                #expect(throughput.planned(at: second.presentTime + 2 * PresentThroughput.firstProbeWait - 1) != nil)
                #expect(throughput.planned(at: second.presentTime + 2 * PresentThroughput.firstProbeWait) == nil)
            }
        }
    }
}

extension PresentThroughput {
    /// Plans a frame at `now`, as the loop does, and returns its ceiling.
    mutating func planned(at now: Nanoseconds) -> RateCeiling? {
        plan(at: now)
        return ceiling
    }
}
