import Testing
@_spi(Programs) import Cadence
@_spi(Programs) @testable import CadenceSDL

/// The X Present clock on ticks the test makes, no X server: vkms's kernel
/// vblanks at 60 Hz (1344 × 806 pixels at 65 MHz: 16.6656 ms exactly), UST
/// in whole microseconds as X gives it. Every expected time is the true
/// grid's, generated here.
@Suite("The X Present clock on synthetic ticks")
struct XPresentClockTickTests {
    static let truth = VsyncGrid(origin: 3_000_000_123, rate: FrameRate(period: 16_665_600))
    static let sixty = FrameRate(numerator: 60)

    /// Vblank `k`'s tick as X reports it: UST truncated to the microsecond, `skew` added.
    static func tick(_ k: Int64, skew: Nanoseconds = 0) -> VblankTick {
        VblankTick(counter: 1_000 + k, time: (truth.time(at: k) + skew) / 1_000 * 1_000)
    }

    static func clock(_ ticks: FakeTicks, since: Nanoseconds = truth.origin) -> XPresentClock {
        let clock = XPresentClock(ticks: ticks, isXWayland: false)
        clock.startMode(standIn: PresentReturnClock(nominal: sixty, since: since, throttledByCompositor: false))
        return clock
    }

    @Test("Frames a dozen vblanks apart after a wrong first rate (the first four ticks 7 µs a vblank later each, so a grid fitted to them drifts 0.1 ms in the dozen vblanks to the next): every glass time labelled vblank within 0.05 ms of the true vblank after its present")
    func sparseFramesStayOnTheKernelGrid() {
        let ticks = FakeTicks()
        let clock = Self.clock(ticks)
        var random = SeededRandom(seed: 41)
        var vblank: Int64 = 0, measured = 0
        for frame in 0..<200 {
            // The question asked at the last read is answered at the vblank after it.
            let skew: Nanoseconds = frame <= 4 ? Nanoseconds(frame - 1) * 7_000 : 0
            if frame > 0 { ticks.pending = [Self.tick(vblank + 1, skew: skew)] }
            vblank += frame < 5 ? 1 : Int64.random(in: 10...14, using: &random)
            let returned = Self.truth.time(at: vblank) + 2_000_000
            let glass = clock.presented(submittedAt: returned - 1_000_000, returnedAt: returned)
            guard glass.source == .vblank else { continue }
            measured += 1
            let expected = Self.truth.time(at: vblank + 1)
            #expect(abs(glass.time - expected) <= 50_000, "frame \(frame): \(glass.time - expected) ns off")
        }
        #expect(measured >= 190)
        #expect(clock.source == .xPresent && !clock.isProvisional && clock.absence == nil)
    }

    @Test("An answer with no time (UST 0): named absent at the first read, the stand-in paces and is not provisional, and the backend's words say why")
    func noTimeIsAbsentAtOnce() {
        let ticks = FakeTicks()
        let clock = Self.clock(ticks)
        ticks.pending = [VblankTick(counter: 1, time: 0)]
        let returned = Self.truth.time(at: 1) + 2_000_000
        let glass = clock.presented(submittedAt: returned - 8_000_000, returnedAt: returned)
        #expect(clock.absence == .noTime)
        #expect(clock.source == .presentReturns && glass.source == .estimated)
        #expect(!clock.isProvisional)
        #expect(clock.timing == .fixed(VsyncGrid(origin: Self.truth.origin, rate: Self.sixty)))
        #expect("\(ClockAbsence.noTime)" == "X Present gives no time: UST 0")
    }

    /// Presents every vblank from 1, each read bringing `tick(frame)`; the clock after `frames`.
    func run(_ clock: XPresentClock, _ ticks: FakeTicks, frames: ClosedRange<Int64>, tick: (Int64) -> VblankTick?) {
        for k in frames {
            ticks.pending = tick(k).map { [$0] } ?? []
            let returned = Self.truth.time(at: k) + 2_000_000
            _ = clock.presented(submittedAt: returned - 8_000_000, returnedAt: returned)
        }
    }

    @Test("A counter stuck at MSC 1 030 with its time, answered every frame: the grid is dropped and the clock named absent at its second answer (a clock that ticks answers each question with the next counter); once it counts again a grid returns")
    func stuckCounter() {
        let ticks = FakeTicks()
        let clock = Self.clock(ticks)
        run(clock, ticks, frames: 1...30) { Self.tick($0 - 1) }
        #expect(clock.source == .xPresent)
        // From frame 31 every answer is MSC 1 030 (vblank 30): new at frame 31, answered again at 32.
        run(clock, ticks, frames: 31...31) { _ in Self.tick(30) }
        #expect(clock.absence == nil && clock.source == .xPresent)
        run(clock, ticks, frames: 32...32) { _ in Self.tick(30) }
        #expect(clock.absence == .counterStuck(1_030))
        #expect(clock.source == .presentReturns && clock.grid == nil)
        run(clock, ticks, frames: 33...40) { _ in Self.tick(30) }
        #expect(clock.absence == .counterStuck(1_030))
        run(clock, ticks, frames: 41...45) { Self.tick($0 - 1) }
        #expect(clock.absence == nil && clock.source == .xPresent)
    }

    @Test("XWayland 24.1's answer to a window drawn by software GL, MSC 1 and the same time every time, at once: provisional after the first answer, absent at the second, then the stand-in's lead (just after its instant before the target) and its instant after each return")
    func xwaylandStuckAtOne() {
        let ticks = FakeTicks()
        let clock = Self.clock(ticks)
        // The time XWayland gives is fixed, from before the game started.
        let answer = VblankTick(counter: 1, time: Self.truth.origin - 1_234_000)
        let standIn = VsyncGrid(origin: Self.truth.origin, rate: Self.sixty)
        // Presents that do not wait: each returns 0.3 ms after it was made, 1 ms past a stand-in instant.
        func present(_ k: Int64) -> GlassEstimate {
            ticks.pending = [answer]
            let returned = standIn.time(at: k) + 1_000_000
            return clock.presented(submittedAt: returned - 300_000, returnedAt: returned)
        }
        _ = present(1)
        #expect(clock.absence == nil && clock.isProvisional)
        let glass = present(2)
        #expect(clock.absence == .counterStuck(1))
        #expect(!clock.isProvisional && clock.grid == nil && clock.source == .presentReturns)
        #expect(glass == GlassEstimate(time: standIn.time(at: 3), source: .estimated))
        // Fifteen sixteenths of 16 666 667 ns (the period of 60 Hz, rounded), the sixteenth rounded down.
        #expect(clock.vsyncLead(period: 16_666_667) == 15_625_001)
        #expect("\(ClockAbsence.counterStuck(1))" == "X Present stuck at MSC 1")
    }

    @Test("XWayland 24.1's answers to the two questions the watcher asks when it opens, both there when the mode starts, with MSC 1: absent before the first frame, which goes out on the stand-in's lead and is estimated at its instant after the return")
    func xwaylandBothFirstAnswersAtOnce() {
        let ticks = FakeTicks()
        let answer = VblankTick(counter: 1, time: Self.truth.origin - 40_000)
        ticks.pending = [answer, answer]
        let clock = Self.clock(ticks)
        #expect(clock.absence == .counterStuck(1) && !clock.isProvisional && clock.source == .presentReturns)
        #expect(clock.vsyncLead(period: 16_666_667) == 15_625_001)
        let standIn = VsyncGrid(origin: Self.truth.origin, rate: Self.sixty)
        let returned = standIn.time(at: 1) + 1_000_000
        let glass = clock.presented(submittedAt: returned - 300_000, returnedAt: returned)
        #expect(clock.absence == .counterStuck(1) && !clock.isProvisional && clock.source == .presentReturns)
        #expect(glass == GlassEstimate(time: standIn.time(at: 2), source: .estimated))
    }

    @Test("A second mode start just after the first (the window's display read again) keeps what the first answers showed: XWayland 24.1's clock stays absent with no new answer, and a clock that ticks is provisional again until its grid")
    func modeStartKeepsTheEvidence() {
        let ticks = FakeTicks()
        let answer = VblankTick(counter: 1, time: Self.truth.origin - 40_000)
        ticks.pending = [answer, answer]
        let stuck = Self.clock(ticks)
        stuck.startMode(standIn: PresentReturnClock(nominal: Self.sixty, since: Self.truth.origin + 3_000_000,
                                                    throttledByCompositor: false))
        #expect(stuck.absence == .counterStuck(1) && !stuck.isProvisional)
        let ticking = FakeTicks()
        let clock = Self.clock(ticking)
        run(clock, ticking, frames: 1...10) { Self.tick($0 - 1) }
        clock.startMode(standIn: PresentReturnClock(nominal: Self.sixty, since: Self.truth.time(at: 11),
                                                    throttledByCompositor: false))
        #expect(clock.absence == nil && clock.isProvisional)
    }

    @Test("No answer at all: provisional for the first half second, named absent at 0.5 s")
    func silentServer() {
        let ticks = FakeTicks()
        let clock = Self.clock(ticks)
        // Frame k returns 2 ms after vblank k: frame 29 at 0.4853 s, frame 30 at 0.5020 s.
        run(clock, ticks, frames: 1...29) { _ in nil }
        #expect(clock.isProvisional && clock.absence == nil)
        run(clock, ticks, frames: 30...30) { _ in nil }
        #expect(clock.absence == .noAnswer && !clock.isProvisional)
    }

    @Test("A mode change to 75 Hz (counters go on): the old grid is forgotten at once, the new rate fitted from four ticks of its own")
    func modeChange() {
        let ticks = FakeTicks()
        let clock = Self.clock(ticks)
        run(clock, ticks, frames: 1...20) { Self.tick($0 - 1) }
        #expect(clock.grid.map { abs($0.rate.hz - 1e9 / 16_665_600) < 1e-3 } == true)
        let start = Self.truth.time(at: 21)
        clock.startMode(standIn: PresentReturnClock(nominal: FrameRate(numerator: 75), since: start, throttledByCompositor: false))
        #expect(clock.grid == nil && clock.isProvisional)
        let new = VsyncGrid(origin: start, rate: FrameRate(numerator: 75))
        for k: Int64 in 1...5 {
            ticks.pending = [VblankTick(counter: 2_000 + k, time: new.time(at: k) / 1_000 * 1_000)]
            _ = clock.presented(submittedAt: new.time(at: k + 1) - 5_000_000, returnedAt: new.time(at: k + 1) - 4_000_000)
            if k < 4 { #expect(clock.grid == nil) }
        }
        let grid = clock.grid
        #expect(grid.map { abs($0.rate.hz - 75) < 75e-5 } == true, "\(String(describing: grid?.rate))")
    }

    @Test("A broken connection: the clock says so and the stand-in paces")
    func broken() {
        let ticks = FakeTicks()
        let clock = Self.clock(ticks)
        run(clock, ticks, frames: 1...10) { Self.tick($0 - 1) }
        ticks.broken = true
        run(clock, ticks, frames: 11...11) { Self.tick($0 - 1) }
        #expect(clock.isBroken && clock.grid == nil && clock.source == .presentReturns)
    }
}
