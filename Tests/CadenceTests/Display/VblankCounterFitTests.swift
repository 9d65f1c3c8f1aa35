import Testing
@testable import Cadence

@Suite("The vblank grid from a platform's counter and its times (X Present MSC/UST)")
struct VblankCounterFitTests {
    @Test("Ticks of a 143.856 Hz clock stamped on a millisecond timer, some missed: rate within 0.01%, phase within 0.3 ms")
    func fitsACoarseClock() {
        let truth = VsyncGrid(origin: 5_000_000_000, rate: FrameRate(numerator: 17982, denominator: 125))
        var random = SeededGenerator(seed: 7)
        var fit = VblankCounterFit()
        var counter: Int64 = 1_000
        while counter < 1_600 {
            // Stamped by a millisecond timer: the time rounded down to the millisecond.
            let time = truth.time(at: counter) / 1_000_000 * 1_000_000
            fit.add(counter: counter, time: time)
            counter += Int64.random(in: 1...3, using: &random)   // polled once a frame: ticks are missed
        }
        let grid = try! #require(fit.grid())
        #expect(abs(grid.rate.hz - 143.856) <= 143.856 * 1e-4, "\(grid.rate.hz) Hz")
        #expect(grid.isMeasured)
        let k = truth.nearestIndex(to: grid.origin)
        // Rounding down to the millisecond puts stamps 0.5 ms early on average.
        #expect(abs(grid.origin - (truth.time(at: k) - 500_000)) <= 300_000, "phase off by \(grid.origin - truth.time(at: k)) ns")
    }

    @Test("No grid from fewer than four pairs or a single vblank; a repeat is ignored; a counter going back starts over")
    func startsAndRestarts() {
        var fit = VblankCounterFit()
        for k: Int64 in 0..<3 { fit.add(counter: k, time: k * 10_000_000) }
        #expect(fit.grid() == nil)
        fit.add(counter: 2, time: 99)          // a repeat of counter 2
        #expect(fit.grid() == nil)
        fit.add(counter: 3, time: 30_000_000)
        #expect(fit.grid()?.rate == FrameRate(numerator: 100))
        #expect(fit.grid()?.origin == 30_000_000)
        fit.add(counter: 0, time: 50_000_000)  // a new counter (another output)
        #expect(fit.grid() == nil)
    }
}
