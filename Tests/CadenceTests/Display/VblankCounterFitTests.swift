import Testing
@_spi(Programs) @testable import Cadence

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

    /// Pairs 0…7 of a 100 Hz clock: 10 ms apart from 1 s.
    func fitOnHundredHertz() -> VblankCounterFit {
        var fit = VblankCounterFit()
        for k: Int64 in 0...7 { fit.add(counter: k, time: 1_000_000_000 + k * 10_000_000) }
        return fit
    }

    @Test("The server's clock jumps 920 ms ahead at counter 8: one pair off the line changes nothing, the second starts over, four give the new line")
    func restartsWhenTheClockJumps() {
        var fit = fitOnHundredHertz()
        #expect(fit.grid() == VsyncGrid(origin: 1_070_000_000, rate: FrameRate(numerator: 100), measured: true))
        // Counter 8 should come at 1.08 s; it comes at 2 s: 920 ms off, far past half a period (5 ms).
        fit.add(counter: 8, time: 2_000_000_000)
        #expect(fit.grid() == VsyncGrid(origin: 1_070_000_000, rate: FrameRate(numerator: 100), measured: true))
        // A second pair off the old line: the fit starts over from the two, too few for a grid.
        fit.add(counter: 9, time: 2_010_000_000)
        #expect(fit.grid() == nil)
        fit.add(counter: 10, time: 2_020_000_000)
        #expect(fit.grid() == nil)
        // Four pairs 8…11, 10 ms apart: 100 Hz, instant 0 at counter 11's 2.03 s.
        fit.add(counter: 11, time: 2_030_000_000)
        #expect(fit.grid() == VsyncGrid(origin: 2_030_000_000, rate: FrameRate(numerator: 100), measured: true))
    }

    @Test("The mode changes to 50 Hz unheard of at counter 8: the fit starts over at the second pair off the line and finds 50 Hz")
    func restartsWhenTheModeChangesUnheard() {
        var fit = fitOnHundredHertz()
        // From counter 7 at 1.07 s, 20 ms a vblank: 1.09 s (10 ms off the line's 1.08 s), 1.11 s (20 ms off its 1.09 s), …
        for k: Int64 in 8...11 { fit.add(counter: k, time: 1_070_000_000 + (k - 7) * 20_000_000) }
        // Pairs 8…11 alone: 20 ms apart, instant 0 at counter 11's 1.15 s.
        #expect(fit.grid() == VsyncGrid(origin: 1_150_000_000, rate: FrameRate(numerator: 50), measured: true))
    }

    @Test("A lone pair 7 ms off the line (more than half the 10 ms period) is dropped: the next on the line continues it exactly")
    func dropsALoneGlitch() {
        var fit = fitOnHundredHertz()
        fit.add(counter: 8, time: 1_087_000_000)
        fit.add(counter: 9, time: 1_090_000_000)
        // Pairs 0…7 and 9, all on the line t = 1 s + 10 ms × k: instant 0 at counter 9's 1.09 s.
        #expect(fit.grid() == VsyncGrid(origin: 1_090_000_000, rate: FrameRate(numerator: 100), measured: true))
    }
    @Test("Xvfb's fake clock on a server short of CPU (each tick stamped when its timer fired, numbered by the nearest vblank; stalls of 2 to 25 ms): the fit never starts over, its rate stays within 0.2% of the clock's")
    func timerStampedClockUnderLoad() {
        // Xvfb -fakescreenfps 144: a vblank every 6944 µs (whole microseconds).
        let interval: Nanoseconds = 6_944_000
        var random = SeededGenerator(seed: 11)
        var fit = VblankCounterFit()
        var stallEnd: Nanoseconds = 0, fired: Nanoseconds = 0
        for k: Int64 in 1...3_000 {
            let due = k * interval
            // About every 100 ms the server stalls for 2 to 25 ms; a timer due in a stall fires at its end.
            if due > stallEnd, Int.random(in: 0..<14, using: &random) == 0 {
                stallEnd = due + Nanoseconds.random(in: 2_000_000...25_000_000, using: &random)
            }
            let late = due < stallEnd ? stallEnd - due : 0
            fired = max(fired, due + late + Nanoseconds.random(in: 0...1_000_000, using: &random))
            let ust = fired / 1_000 * 1_000
            fit.add(counter: (ust + interval / 2) / interval, time: ust)
            if k < 50 { continue }
            guard let grid = fit.grid() else {
                Issue.record("no grid at tick \(k): the fit started over")
                return
            }
            // Stalls stamp pairs only late, so the line leans a little; a fit
            // started over from a few such pairs is off by several percent.
            let hz = 1e9 / Double(interval)
            #expect(abs(grid.rate.hz - hz) <= hz * 2e-3, "tick \(k): \(grid.rate.hz) Hz")
        }
    }
}

