import Foundation
import Testing
@_spi(Programs) @testable import Cadence

/// The work's ceiling decided frame by frame from costs given by hand, and the rates it chooses among.
@MainActor
@Suite("Adaptive rate: choices and decisions")
struct AdaptiveDecisionTests {
    @Test func fixedDisplayOffersItsDivisors() {
        let choices = RateChoices(.fixed(VsyncGrid(origin: 0, rate: hz(60))))
        #expect(choices == .discrete([60, 30, 20, 15, 12, 10].map { hz($0) }))
        #expect(choices.highest(withIntervalAtLeast: 23 * ms) == hz(30))
        #expect(choices.highest(withIntervalAtLeast: 16 * ms) == hz(60))
        #expect(choices.highest(withIntervalAtLeast: 500 * ms) == hz(10))
        #expect(choices.nearest(to: hz(59.94)) == hz(60))
    }

    @Test("VRR: any whole rate up to the maximum; below the minimum the driver repeats, the game needs no extra time")
    func variableRefreshOffersAnyRate() {
        let choices = RateChoices(.variable(minimum: hz(48), maximum: hz(144)))
        #expect(choices.highest == hz(144))
        #expect(choices.highest(withIntervalAtLeast: 4 * ms) == hz(144))
        #expect(choices.highest(withIntervalAtLeast: 12_650_000) == hz(79))
        // 23 ms is past the panel's 20.8 ms: 43 Hz, each frame shown twice by the driver.
        #expect(choices.highest(withIntervalAtLeast: 23 * ms) == hz(43))
        #expect(RateChoices(.unsynced(reported: hz(60))).highest(withIntervalAtLeast: 23 * ms) == hz(43))
        // A maximum that is not a whole rate (a cap of 23.5) stays where its 42.55 ms holds the interval.
        #expect(RateChoices.continuous(maximum: hz(23.5)).highest(withIntervalAtLeast: 41_700_000) == hz(23.5))
        #expect(RateChoices.continuous(maximum: hz(23.5)).highest(withIntervalAtLeast: 43 * ms) == hz(23))
    }

    /// A frame that cost `cost`, its present returning at `at`, shown at once (no vblank wait to leave out).
    static func frame(cost: Nanoseconds, at: Nanoseconds) -> FrameRecord {
        FrameRecord(frame: 0, timestamp: 0, targetTimestamp: at, presentTime: at, delta: 0, limit: .adaptive, rate: hz(144),
                    refreshMode: .variable, callbackStart: at - cost, workEnd: at, presentSubmit: at, skippedFrames: 0)
    }

    static let vrr = DisplayTiming.variable(minimum: hz(48), maximum: hz(144))

    @Test("Down in one step on the first frame that overran, to hold the largest recent cost; a hitch lowers one frame")
    func dropsOnOverrunningCost() {
        var ceiling = WorkRateCeiling(tuning: .adaptive)
        func next(cost: Nanoseconds, at t: Nanoseconds) -> Double {
            ceiling.observe(Self.frame(cost: cost, at: t), on: Self.vrr)
            ceiling.plan(under: hz(144), on: Self.vrr)
            return ceiling.ceiling?.rate.hz ?? 144
        }
        for k in 0..<10 { #expect(next(cost: 4 * ms, at: Nanoseconds(k) * 7 * ms) == 144) }
        // One frame over 6.94 ms: 8 ms + 15% = 9.2 ms holds 108 Hz for the next frame; 4 ms + 30% = 5.2 ms fits
        // 144 Hz, and the 8 ms frame is one run the light frame ended: back at once.
        #expect(next(cost: 8 * ms, at: 80 * ms) == 108)
        #expect(ceiling.ceiling?.reason == .work(cost: 8 * ms))
        #expect(next(cost: 4 * ms, at: 90 * ms) == 144)
        // A second later (that frame out of the half-second window): 11 ms + 15% = 12.65 ms is 79 Hz.
        for k in 0..<10 { #expect(next(cost: 4 * ms, at: 1_000 * ms + Nanoseconds(k) * 7 * ms) == 144) }
        #expect(next(cost: 11 * ms, at: 1_080 * ms) == 79)
        #expect(next(cost: 11 * ms, at: 1_093 * ms) == 79, "at 79 Hz those frames fit: no second drop")
        #expect(next(cost: 4 * ms, at: 1_106 * ms) == 144)
        // 8 ms overruns 144 Hz again: the drop holds the largest cost of the window, 11 ms (79 Hz), not 8 ms
        // (108 Hz), which would leave the next 11 ms frame late.
        #expect(next(cost: 8 * ms, at: 1_113 * ms) == 79)
    }

    @Test("Up on the first frame the work allows; work that alternates stays at the rate holding all of it")
    func climbsOnTheFirstFrameTheWorkAllows() {
        let sixty = DisplayTiming.fixed(VsyncGrid(origin: 0, rate: hz(60)))
        var ceiling = WorkRateCeiling(tuning: .adaptive)
        var time: Nanoseconds = 0
        func next(_ cost: Nanoseconds) -> Double {
            time += 33 * ms
            ceiling.observe(Self.frame(cost: cost, at: time), on: .unsynced(reported: hz(60)))
            ceiling.plan(under: hz(60), on: sixty)
            return ceiling.ceiling?.rate.hz ?? 60
        }
        // 20 ms + 15% = 23 ms: every second vblank (30 Hz) from the frame after the first overrun.
        #expect([20, 20, 20, 20].map { next($0 * ms) } == [30, 30, 30, 30])
        // 5 ms + 30% = 6.5 ms fits 60 Hz, and the 20 ms frames are one run: up at once.
        #expect(next(5 * ms) == 60)
        // 5 and 20 ms in turn: down at the first overrun, then the window holds two runs of 20 ms frames.
        #expect([20, 5, 20, 5, 20, 5].map { next($0 * ms) } == [30, 30, 30, 30, 30, 30])
        // Light for good: up once the heavy frames have left the window (0.5 s of frames, at most 16).
        let light = (0..<16).map { _ in next(5 * ms) }
        #expect(light.last == 60 && light.filter { $0 == 30 }.count >= 10, "\(light)")
    }

    @Test("The Rate limits article states the rules the work's ceiling follows: its drop, window, margins, adaptive and at a request")
    func documentationAgreesWithTheCeiling() throws {
        let article = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Cadence/Cadence.docc/RateLimits.md"), encoding: .utf8)
        func section(_ title: String) throws -> String {
            try #require(article.components(separatedBy: title).dropFirst().first?.components(separatedBy: "\n### ").first)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let adaptive = try section("### Adaptive"), work = try section("### The work lowers the rate, at any limit")
        let a = WorkRateCeiling.Tuning.adaptive, r = WorkRateCeiling.Tuning.request
        #expect([a, r].allSatisfy { $0.window == 16 && $0.windowSpan == 500_000_000 })
        #expect(work.contains("When a frame's work overran the interval"))
        #expect(work.contains("the largest work of the last \(r.window) frames (none older than half a second), with nothing to spare"))
        #expect(a.measure == .cost && r.measure == .work && r.keepMargin == 0 && r.climbMargin == 0)
        #expect(adaptive.contains("the same ceiling") && adaptive.contains("a drop holds the largest cost plus \(Int(a.keepMargin * 100))%"))
        #expect(adaptive.contains("a climb needs the faster rate to hold the latest cost plus \(Int(a.climbMargin * 100))%"))
    }

    @Test("A frame's cost is its work plus the present's own cost; waiting for the vblank is not cost")
    func frameCost() {
        func record(start: Nanoseconds, workEnd: Nanoseconds, submit: Nanoseconds, returned: Nanoseconds) -> FrameRecord {
            FrameRecord(frame: 0, timestamp: 0, targetTimestamp: 0, presentTime: returned, delta: 0, limit: .adaptive,
                        rate: hz(60), refreshMode: .fixed, callbackStart: start, workEnd: workEnd,
                        presentSubmit: submit, skippedFrames: 0)
        }
        let grid = VsyncGrid(origin: 0, rate: hz(50))                       // vblanks every 20 ms
        // 3 ms of work, submitted at 10 ms, returned on the 20 ms vblank: 3 ms.
        #expect(record(start: 0, workEnd: 3 * ms, submit: 10 * ms, returned: 20 * ms).cost(on: .fixed(grid)) == 3 * ms)
        // The same present returning 1 ms after that vblank (a slow present): 4 ms.
        #expect(record(start: 0, workEnd: 3 * ms, submit: 10 * ms, returned: 21 * ms).cost(on: .fixed(grid)) == 4 * ms)
        // No vsync: the present's 10 ms copy is all cost (Xvfb): 13 ms.
        #expect(record(start: 0, workEnd: 3 * ms, submit: 10 * ms, returned: 20 * ms)
            .cost(on: .unsynced(reported: hz(60))) == 13 * ms)
    }
}
