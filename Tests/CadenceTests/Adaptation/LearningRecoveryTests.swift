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

    @Test("A try is four frames, judged by when their presents return at 60 Hz (16.7 ms planned, 18.3 allowed): two in a row 20 ms after the one before end it; one late return among them (the server late once) does not; the slower rate's slack carrying the first two, then two late, ends it at the fourth", arguments: [
        ([20 * ms, 20 * ms, 20 * ms, 20 * ms], 2),
        ([20 * ms, 16_666_667, 20 * ms, 16_666_667], nil),
        ([14 * ms, 16_666_667, 16_666_667, 16_666_667], nil),
        ([16_666_667, 16_666_667, 20 * ms, 20 * ms], 4),
    ] as [([Nanoseconds], Int?)])
    func fourFrameTry(gaps: [Nanoseconds], slowAt: Int?) {
        var throughput = PresentThroughput()
        // Sixteen frames present-bound, returns 20 ms apart: 50 a second learned at frame 15.
        for i in 0..<16 { throughput.observe(frame(i, returned: Nanoseconds(i) * 20 * ms, late: true)) }
        #expect(throughput.sustainableRate == FrameRate(numerator: 50))
        let learnedAt = 15 * 20 * ms
        #expect(throughput.planned(at: learnedAt + PresentThroughput.firstProbeWait - 1)?.rate == FrameRate(numerator: 50))
        // The try: four frames planned with no ceiling, then the ceiling again until they are judged.
        let start = learnedAt + PresentThroughput.firstProbeWait
        #expect((0..<4).allSatisfy { throughput.planned(at: start + $0) == nil })
        #expect(throughput.planned(at: start + 4)?.rate == FrameRate(numerator: 50))
        // The frame before the try returned at `start`; each try frame, on time, `gaps` after the one before.
        var before = frame(200, returned: start, late: false)
        before.callbackStart = start - 1
        throughput.observe(before)
        var returned = start
        for (k, gap) in gaps.enumerated() {
            returned += gap
            var tried = frame(201 + k, returned: returned, late: false)
            tried.callbackStart = start + Nanoseconds(k)
            throughput.observe(tried)
            let ended = slowAt.map { k + 1 >= $0 } ?? false
            if k + 1 < gaps.count || slowAt != nil {
                #expect(throughput.sustainableRate != nil, "after try frame \(k + 1) of \(gaps)")
            }
            if ended {
                // The wait doubled: the next try a second after that present returned.
                #expect(throughput.planned(at: returned + 2 * PresentThroughput.firstProbeWait - 1) != nil)
                #expect(throughput.planned(at: returned + 2 * PresentThroughput.firstProbeWait) == nil)
                return
            }
        }
        #expect(throughput.sustainableRate == nil, "kept up through \(gaps)")
    }

    @Test("A try that passed and whose rate is learned again within two windows failed after all: the next try waits twice as long (1 s); learned again later, half a second")
    func relearnedSoonAfterATry() {
        for (gapFrames, wait) in [(0, 2 * PresentThroughput.firstProbeWait), (40, PresentThroughput.firstProbeWait)] {
            var throughput = PresentThroughput()
            for i in 0..<16 { throughput.observe(frame(i, returned: Nanoseconds(i) * 20 * ms, late: true)) }
            let start = 15 * 20 * ms + PresentThroughput.firstProbeWait
            #expect((0..<4).allSatisfy { throughput.planned(at: start + $0) == nil })
            // The try's four frames come back on the asked interval, on time: the rate goes.
            var returned = start
            for k in 0..<4 {
                returned += 16_666_667
                var tried = frame(100 + k, returned: returned, late: false)
                tried.callbackStart = start + Nanoseconds(k)
                throughput.observe(tried)
            }
            #expect(throughput.sustainableRate == nil)
            // `gapFrames` frames keeping up, then present-bound ones 20 ms apart until a rate is learned again
            // (the window's mean, part of it still the frames that kept up).
            var learnedAt: Nanoseconds?
            for k in 0..<(gapFrames + 16) where learnedAt == nil {
                returned += k < gapFrames ? 16_666_667 : 20 * ms
                throughput.observe(frame(104 + k, returned: returned, late: k >= gapFrames))
                if throughput.sustainableRate != nil { learnedAt = returned }
            }
            guard let learnedAt else {
                Issue.record("nothing learned again after \(gapFrames) frames between")
                continue
            }
            #expect(throughput.planned(at: learnedAt + wait - 1) != nil, "\(gapFrames) frames between")
            #expect(throughput.planned(at: learnedAt + wait) == nil, "\(gapFrames) frames between")
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
