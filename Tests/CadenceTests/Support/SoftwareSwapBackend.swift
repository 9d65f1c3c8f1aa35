@_spi(Programs) @testable import Cadence

/// Xvfb's path as the real-time backend meets it, in virtual time: X Present's
/// fake clock ticks at `refresh` (a measured grid), while the software swap
/// returns no sooner than `swap` after the previous present returned (Mesa's
/// swap waits about 16 ms whatever the clock), give or take a seeded jitter of
/// up to half a millisecond. The frame reaches the glass at the first vblank
/// after its present returned, one new frame a vblank, and the backend says
/// so as a measured (`vblank`) glass time. Presents go three quarters of a
/// refresh before their vblank, as on the X Present clock. The swap's time
/// may change with the virtual time (`swapAt`): a machine busy for a while,
/// then quiet. A display server short of CPU completes a swap late: a
/// present returns no sooner than `completionLatency` after the frame before
/// it reached the glass (Mesa waits for the previous swap's completion).
final class SoftwareSwapBackend: FrameBackend, ScriptedWork {
    let virtualClock = VirtualClock(start: 1_000_000_000)
    let grid: VsyncGrid
    let swapAt: (Nanoseconds) -> Nanoseconds
    var completionLatency: Nanoseconds = 0
    private var random: SeededGenerator
    private var lastReturn: Nanoseconds?
    private var lastShown: Nanoseconds?
    /// Every new frame: when it was submitted, when its present returned, when it was shown.
    private(set) var frames: [(submitted: Nanoseconds, returned: Nanoseconds, shown: Nanoseconds)] = []

    convenience init(refresh: FrameRate, swap: Nanoseconds, seed: UInt64) {
        self.init(refresh: refresh, seed: seed) { _ in swap }
    }

    init(refresh: FrameRate, seed: UInt64, swapAt: @escaping (Nanoseconds) -> Nanoseconds) {
        grid = VsyncGrid(origin: 5_000_000, rate: refresh, nominal: refresh, measured: true)
        self.swapAt = swapAt
        random = SeededGenerator(seed: seed)
    }

    var clock: FrameClock { virtualClock }
    func doWork(_ duration: Nanoseconds) { virtualClock.advance(by: duration) }
    func wait(until deadline: Nanoseconds) { virtualClock.sleep(until: deadline) }
    func currentTiming() -> DisplayTiming { .fixed(grid) }
    func vsyncLead(on timing: DisplayTiming) -> Nanoseconds? { grid.rate.period * 3 / 4 }

    func present() -> PresentOutcome {
        let submitted = virtualClock.now
        let jitter = Nanoseconds.random(in: 0...500_000, using: &random)
        let returned = max(submitted + 100_000, (lastReturn ?? 0) + swapAt(submitted) + jitter,
                           (lastShown ?? 0) + completionLatency)
        virtualClock.sleep(until: returned)
        var k = grid.index(atOrAfter: returned)
        if let lastShown, grid.time(at: k) <= lastShown { k = grid.index(after: lastShown) }
        let shown = grid.time(at: k)
        lastReturn = returned
        lastShown = shown
        frames.append((submitted, returned, shown))
        return PresentOutcome(shownAt: shown, tracedAt: returned, glassSource: .vblank)
    }
}

