import Testing
@_spi(Programs) @testable import Cadence

/// The queue a vsync'd swap keeps on Wayland when every frame waits for the
/// one before to be composited: records made by hand as the platform would
/// report them on a 60 Hz grid, the expected plans worked out from the rule
/// (eight frames in a row an interval late with their presents blocked).
@Suite("A frame queued in the present path: seen, emptied once, not taken for the path")
struct PresentQueueTests {
    static let period = FrameRate(numerator: 60).period

    /// Frame `k`, presented just after the vblank before its target, its
    /// present returning `blocked` later and reported on the glass `late` after its target.
    static func record(_ k: Int, late: Nanoseconds = period, blocked: Nanoseconds = 9_000_000,
                       source: GlassTimeSource = .feedback, workEnd: Nanoseconds? = nil) -> FrameRecord {
        let target = 1_000_000_000 + Nanoseconds(k) * period
        let submit = target - period + 1_000_000
        return FrameRecord(frame: k, timestamp: target - period, targetTimestamp: target, presentTime: submit + blocked,
                           delta: period, limit: .range(.displayRate), rate: FrameRate(numerator: 60),
                           refreshMode: .fixed, callbackStart: submit - 3_000_000,
                           workEnd: workEnd ?? submit - 1_000_000, presentSubmit: submit, skippedFrames: 0,
                           glassTime: target + late, glassSource: source)
    }

    /// Whether planning at `now` moves the newest flip (at 5 s) an interval later.
    static func drains(_ queue: inout PresentQueue, at now: Nanoseconds) -> Bool {
        queue.flips(planningFrom: FlipHistory(last: 5_000_000_000), at: now).last == 5_000_000_000 + period
    }

    @Test("Eight frames an interval late with blocked presents: the next plan starts from the flip an interval later, once")
    func drainsOnce() {
        var queue = PresentQueue()
        for k in 0..<7 {
            let explained = queue.observe(Self.record(k))
            #expect(explained, "the queue explains frame \(k)")
        }
        let early = Self.drains(&queue, at: 0)
        #expect(!early, "seven are not yet evidence")
        queue.observe(Self.record(7))
        let drained = Self.drains(&queue, at: 2_000_000_000), again = Self.drains(&queue, at: 2_000_000_001)
        #expect(drained && !again, "once")
    }

    @Test("Not a queue: late by other than an interval, a present that did not block, a glass time not reported, work past its slot")
    func otherLateness() {
        let cases: [(String, (Int) -> FrameRecord)] = [
            ("0.9 of an interval late", { Self.record($0, late: Self.period * 9 / 10) }),
            ("present returned at once", { Self.record($0, blocked: 200_000) }),
            ("glass estimated", { Self.record($0, source: .vblank) }),
            ("work past its slot", { Self.record($0, workEnd: 1_000_000_000 + Nanoseconds($0) * Self.period + 1) }),
        ]
        for (name, make) in cases {
            var queue = PresentQueue()
            for k in 0..<20 {
                let explained = queue.observe(make(k))
                #expect(!explained, "\(name): frame \(k)")
            }
            let drained = Self.drains(&queue, at: 0)
            #expect(!drained, "\(name)")
        }
    }

    @Test("Frames presented before a drain are the queue it emptied; a drain no frame came on time after is not tried again")
    func afterADrain() {
        var queue = PresentQueue()
        for k in 0..<8 { queue.observe(Self.record(k)) }
        // Planned just before frame 10's present (its submit 1 ms after the vblank at 1 s + 9 intervals).
        let drainedAt = 1_000_000_000 + 9 * Self.period + 500_000
        let drained = Self.drains(&queue, at: drainedAt)
        #expect(drained)
        // Frames 8 and 9 were presented before it (their submits are before drainedAt).
        let before = [queue.observe(Self.record(8)), queue.observe(Self.record(9))]
        #expect(before == [true, true])
        // Still an interval late after it, frame after frame: the path's own lateness, not a queue.
        for k in 10..<30 {
            let explained = queue.observe(Self.record(k))
            #expect(!explained, "frame \(k)")
        }
        let second = Self.drains(&queue, at: drainedAt + 30 * Self.period)
        #expect(!second)
        // One frame on time shows the drain had helped; a queue that forms again is emptied again.
        queue.observe(Self.record(30, late: 0, blocked: 200_000))
        for k in 31..<39 { queue.observe(Self.record(k)) }
        let third = Self.drains(&queue, at: drainedAt + 40 * Self.period)
        #expect(third)
    }
}
