import Testing
@_spi(Programs) @testable import Cadence

@Suite("Vsync estimator")
struct VsyncEstimatorTests {
    @Test("Recovers 59.951 Hz and the vblank phase from present returns jittered by up to 3 ms")
    func jitteryPresents() {
        let truth = VsyncGrid(origin: 5_000_000, rate: FrameRate(numerator: 59_951, denominator: 1000))
        var estimator = VsyncEstimator(nominal: hz(60))   // SDL says 60
        var rng = SeededGenerator(seed: 42)
        var k: Int64 = 0
        for _ in 0..<600 {
            k += Int64.random(in: 0..<10, using: &rng) == 0 ? 2 : 1   // a missed vblank now and then
            let jitter = Nanoseconds.random(in: 100_000...3_000_000, using: &rng)
            estimator.addPresent(at: truth.time(at: k) + jitter)
        }
        let grid = try! #require(estimator.grid)
        #expect(abs(grid.rate.hz - 59.951) < 0.01)
        // The phase: the estimated vblank nearest a true one is within half a millisecond of it.
        let probe = truth.time(at: k)
        let estimated = grid.time(at: grid.nearestIndex(to: probe))
        #expect(abs(estimated - probe) < 500_000)
    }

    @Test("Recovers a 62.5 Hz compositor that SDL reports as 60 Hz, with missed repaints and 6 ms of jitter")
    func rateFarFromTheNominalOne() {
        // Weston's headless repaint clock (16 ms) behind XWayland, which reports 60 Hz.
        let truth = VsyncGrid(origin: 2_000_000, rate: FrameRate(hz: 62.5))
        var estimator = VsyncEstimator(nominal: hz(60))
        var rng = SeededGenerator(seed: 7)
        var k: Int64 = 0
        for _ in 0..<500 {
            k += Int64.random(in: 0..<10, using: &rng) == 0 ? 2 : 1
            estimator.addPresent(at: truth.time(at: k) + Nanoseconds.random(in: 100_000...6_000_000, using: &rng))
        }
        let grid = try! #require(estimator.grid)
        #expect(abs(grid.rate.hz - 62.5) < 0.05, "estimated \(grid.rate.hz) Hz")
    }

    @Test("Capped to every second repaint of a 62.5 Hz compositor reported as 60 Hz: still 62.5 Hz")
    func everySecondVblankFarFromTheNominalRate() {
        let truth = VsyncGrid(origin: 2_000_000, rate: FrameRate(hz: 62.5))
        var estimator = VsyncEstimator(nominal: hz(60))
        var rng = SeededGenerator(seed: 11)
        for k in stride(from: Int64(2), through: 1_000, by: 2) {
            estimator.addPresent(at: truth.time(at: k) + Nanoseconds.random(in: 100_000...2_000_000, using: &rng))
        }
        let grid = try! #require(estimator.grid)
        #expect(abs(grid.rate.hz - 62.5) < 0.05, "estimated \(grid.rate.hz) Hz")
    }

    @Test("One return in twenty late by more than half a refresh (a loaded machine) does not move the rate")
    func returnsLateByMoreThanHalfAPeriod() {
        let truth = VsyncGrid(origin: 3_000_000, rate: FrameRate(hz: 62.5))
        var estimator = VsyncEstimator(nominal: hz(60))
        var rng = SeededGenerator(seed: 5)
        for k in Int64(1)...800 {
            let late = Int.random(in: 0..<20, using: &rng) == 0
            let jitter = late ? Nanoseconds.random(in: 9_000_000...12_000_000, using: &rng)
                : Nanoseconds.random(in: 100_000...2_000_000, using: &rng)
            estimator.addPresent(at: truth.time(at: k) + jitter)
        }
        let grid = try! #require(estimator.grid)
        #expect(abs(grid.rate.hz - 62.5) < 0.05, "estimated \(grid.rate.hz) Hz")
        let probe = truth.time(at: 800)
        #expect(abs(grid.time(at: grid.nearestIndex(to: probe)) - probe) < 1_000_000)
    }

    @Test func noEstimateFromTooFewSamples() {
        var estimator = VsyncEstimator(nominal: hz(60))
        for i in 0..<Int64(VsyncEstimator.minimumSamples - 1) { estimator.addPresent(at: i * 16_666_667) }
        #expect(estimator.grid == nil)
        estimator.addPresent(at: 100 * 16_666_667)
        #expect(estimator.grid != nil)
    }

    @Test("Returns that fit a rate more than 10% off the reported one are not taken for a grid")
    func implausibleRateIsRejected() {
        // Presents returning every 13 1/3 ms (75 Hz) on a display SDL reports as 60 Hz:
        // what a compositor that repaints on demand gives when presents chase a wrong estimate.
        var estimator = VsyncEstimator(nominal: FrameRate(numerator: 60))
        for k in 0..<64 { estimator.addPresent(at: 1_000_000 + Nanoseconds(k) * 40_000_000 / 3) }
        #expect(estimator.grid == nil)
        // 62.5 Hz, 4% off, is a real compositor's rate and is kept.
        var compositor = VsyncEstimator(nominal: FrameRate(numerator: 60))
        for k in 0..<64 { compositor.addPresent(at: 1_000_000 + Nanoseconds(k) * 16_000_000) }
        #expect(compositor.grid?.rate == FrameRate(numerator: 125, denominator: 2))
    }

    @Test("Presents that returned within a quarter refresh of their call are not fitted; ones that waited are")
    func presentsThatDidNotWaitAreLeftOut() {
        // 60 Hz vblanks at 1 ms + k/60 s. A loop capped at 45 FPS presents 22.2 ms
        // apart; each present returns 0.3 ms after its call (it waited for nothing).
        let truth = VsyncGrid(origin: 1_000_000, rate: hz(60))
        var estimator = VsyncEstimator(nominal: hz(60))
        for n in 0..<200 {
            let called = Nanoseconds(n) * 1_000_000_000 / 45 + 7_000_000
            estimator.addPresent(submittedAt: called, returnedAt: called + 300_000)
        }
        #expect(estimator.grid == nil, "fitted to returns that waited for no vblank: \(String(describing: estimator.grid))")
        // Presents called 10 ms before a vblank that return 0.5 ms after it (10.5 ms,
        // over the quarter refresh of 4.17 ms) waited for it: the grid is the vblanks'.
        for k: Int64 in 1...40 {
            let vblank = truth.time(at: k)
            estimator.addPresent(submittedAt: vblank - 10_000_000, returnedAt: vblank + 500_000)
        }
        let grid = try! #require(estimator.grid)
        let probe = truth.time(at: 41)
        #expect(abs(grid.time(at: grid.nearestIndex(to: probe)) - probe) <= 500_000)
    }
}
