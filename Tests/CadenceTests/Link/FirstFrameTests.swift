import Testing
@_spi(Programs) @testable import Cadence

/// A first frame's target: its work is the run's costliest, so it gets about
/// the time a later frame has, at least seven eighths of an interval, never a
/// slot that is nearly now.
@Suite("The first frame's time for its work")
struct FirstFrameTests {
    static let sixty = FrameRate(numerator: 60)
    static let grid = VsyncGrid(origin: 1_000_000_000, rate: sixty, measured: true)

    @Test("The next vblank 2 ms or 0.1 ms away (under an eighth of a refresh): the first frame is for the one after",
          arguments: [2_000_000 as Nanoseconds, 100_000])
    func nearVblankIsPassed(ahead: Nanoseconds) {
        let link = DisplayLink(preferred: .displayRate)
        let now = Self.grid.time(at: 5) - ahead
        let frame = link.nextFrame(now: now, lastFlip: nil, timing: .fixed(Self.grid))
        #expect(frame.targetTimestampNanoseconds == Self.grid.time(at: 6))
        #expect(frame.skippedFrames == 0)
    }

    @Test("The next vblank 15 ms away (nine tenths of a refresh): the first frame is for it")
    func farVblankIsTaken() {
        let link = DisplayLink(preferred: .displayRate)
        let frame = link.nextFrame(now: Self.grid.time(at: 5) - 15_000_000, lastFlip: nil, timing: .fixed(Self.grid))
        #expect(frame.targetTimestampNanoseconds == Self.grid.time(at: 5))
    }

    @Test("Presented 15/16 of a refresh before its vblank (behind a compositor): the next vblank 20 ms away is passed, its present would leave 4.4 ms")
    func leadCounts() {
        let link = DisplayLink(preferred: .displayRate)
        link.presentLead = 15_625_000
        let now = Self.grid.time(at: 5) - 20_000_000
        let frame = link.nextFrame(now: now, lastFlip: nil, timing: .fixed(Self.grid))
        // Vblank 6 is 36.7 ms away: its present, 15.6 ms before, leaves 21 ms for the work (7/8 of a refresh is 14.6).
        #expect(frame.targetTimestampNanoseconds == Self.grid.time(at: 6))
    }

    @Test("At a cap of 30 on 60 Hz the first frame has at least 29.2 ms (7/8 of 33.3), on a slot of the cap's cadence")
    func cappedFirstFrame() {
        let link = DisplayLink(preferred: FrameRateRange(fps: 30))
        let now = Self.grid.time(at: 5) - 1_000_000
        let frame = link.nextFrame(now: now, lastFlip: nil, timing: .fixed(Self.grid))
        let ahead = frame.targetTimestampNanoseconds - now
        #expect(ahead >= 29_166_666 && ahead < 29_166_666 + 33_333_334, "\(ahead) ns ahead")
        let vblank = Self.grid.nearestIndex(to: frame.targetTimestampNanoseconds)
        #expect(frame.targetTimestampNanoseconds == Self.grid.time(at: vblank), "on a vblank")
    }

    @Test("After a pause the first frame again has its time: the next vblank 1 ms away is passed")
    func afterPause() {
        let link = DisplayLink(preferred: .displayRate)
        var frame = link.nextFrame(now: Self.grid.time(at: 5) - 15_000_000, lastFlip: nil, timing: .fixed(Self.grid))
        frame = link.nextFrame(now: frame.targetTimestampNanoseconds - 15_000_000,
                               lastFlip: frame.targetTimestampNanoseconds, timing: .fixed(Self.grid))
        #expect(frame.targetTimestampNanoseconds == Self.grid.time(at: 6))
        link.resynchronize()
        let resumed = link.nextFrame(now: Self.grid.time(at: 40) - 1_000_000, lastFlip: nil, timing: .fixed(Self.grid))
        #expect(resumed.targetTimestampNanoseconds == Self.grid.time(at: 41))
    }
}
