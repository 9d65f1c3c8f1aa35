import Testing
@_spi(Programs) import Cadence
@_spi(Programs) @testable import CadenceSDL

/// Feedback with no vsync flag: a compositor whose reports lie on an even grid
/// at its stated refresh (Weston 16's headless repaint timer) has vblanks to
/// pace on; one whose reports scatter (Mutter 50's headless completions) or
/// restart at each commit repaints on demand. No compositor: reports the test makes.
@Suite("The Wayland presentation clock on flagless feedback")
struct WaylandEvenGridTests {
    static let refresh: Nanoseconds = 16_666_666
    static let origin: Nanoseconds = 7_000_000_000

    /// The clock after reports at `times` (flags 0, the stated 60 Hz refresh), one a poll.
    static func clock(after times: [Nanoseconds]) -> WaylandPresentationClock {
        let feedback = FakeTicks()
        let clock = WaylandPresentationClock(feedback: feedback)
        clock.startMode(standIn: PresentReturnClock(nominal: FrameRate(numerator: 60), since: origin, throttledByCompositor: true))
        for time in times {
            feedback.pending = [VblankTick(counter: 0, time: time, refresh: refresh, vsynced: false)]
            clock.poll()
        }
        return clock
    }

    @Test("Reports a whole number of refreshes apart to the nanosecond: a grid, its vblanks the reports'")
    func evenGrid() {
        // Frames on every vblank, then every other one (a cap of 30 on a timer that keeps running).
        let times = (0..<5).map { Self.origin + $0 * Self.refresh } + (3..<6).map { Self.origin + 2 * $0 * Self.refresh }
        let clock = Self.clock(after: times)
        guard case .fixed(let grid) = clock.timing else {
            Issue.record("no grid: \(clock.timing)")
            return
        }
        #expect(grid.rate.period == Self.refresh)
        #expect(grid.time(at: grid.nearestIndex(to: Self.origin + 40 * Self.refresh)) == Self.origin + 40 * Self.refresh)
        #expect(clock.source == .waylandPresentation)
    }

    @Test("Three even intervals are not yet a grid; one restart at a new phase is followed at once")
    func shortRunAndRestart() {
        let three = (0..<4).map { Self.origin + $0 * Self.refresh }
        if case .fixed = Self.clock(after: three).timing { Issue.record("a grid from three intervals") }
        // Even, then the timer fired 2.1 ms late and kept that phase.
        let shifted = (0..<6).map { Self.origin + $0 * Self.refresh } + (6..<8).map { Self.origin + $0 * Self.refresh + 2_100_000 }
        guard case .fixed(let grid) = Self.clock(after: shifted).timing else {
            Issue.record("the grid was lost at one restart")
            return
        }
        let vblank = Self.origin + 20 * Self.refresh + 2_100_000
        #expect(grid.time(at: grid.nearestIndex(to: vblank)) == vblank)
    }

    @Test("Reports that scatter by tens of microseconds, or a timer restarted at each commit: no grid, a compositor repainting on demand")
    func unevenReports() {
        // Mutter's completions: a refresh apart within ±20..60 µs.
        var time = Self.origin
        let scattered = (0..<20).map { i -> Nanoseconds in
            time += Self.refresh + [20_000, -35_000, 60_000, -45_000][i % 4]
            return time
        }
        #expect(Self.clock(after: scattered).timing == .unsynced(reported: FrameRate(period: Self.refresh)))
        // An even grid, then two frames each shown a refresh after a commit 0.3 ms off the grid.
        let even = (0..<6).map { Self.origin + $0 * Self.refresh }
        let restarted = even + [even[5] + 2 * Self.refresh + 300_000, even[5] + 4 * Self.refresh + 700_000]
        #expect(Self.clock(after: restarted).timing == .unsynced(reported: FrameRate(period: Self.refresh)))
    }
}
