import Testing
@_spi(Programs) import Cadence
@_spi(Programs) @testable import CadenceSDL

/// The display clocks that need no platform, in virtual time: a 100 Hz
/// display (10 ms exactly, so every expected time is worked out by hand),
/// vblank k at 1 s + k × 10 ms.
@Suite("Display clocks: a grid fitted to present returns, and the timer")
struct DisplayClockTests {
    static let hundred = FrameRate(numerator: 100)
    static func vblank(_ k: Int64) -> Nanoseconds { 1_000_000_000 + k * 10_000_000 }

    @Test("Presents that wait (4 ms, over a quarter refresh): the nominal grid through the mode change, then the one the 16 returns lie on; a frame is shown on the vblank its present returned on, throttled on the next")
    func fitsPresentsThatWait() {
        for throttled in [false, true] {
            let clock = PresentReturnClock(nominal: Self.hundred, since: 1_000_000_000, throttledByCompositor: throttled)
            #expect(clock.timing == .fixed(VsyncGrid(origin: 1_000_000_000, rate: Self.hundred)))
            #expect(clock.source == .presentReturns && clock.note == nil)
            for k: Int64 in 1...16 {
                let glass = clock.presented(submittedAt: Self.vblank(k) - 4_000_000, returnedAt: Self.vblank(k))
                #expect(glass == GlassEstimate(time: Self.vblank(throttled ? k + 1 : k), source: .estimated))
            }
            // Returns 1…16 on an exact 10 ms line: the fit's instant 0 is the first, 1.01 s.
            let fitted = VsyncGrid(origin: 1_010_000_000, rate: Self.hundred, nominal: Self.hundred, measured: true)
            #expect(clock.timing == .fixed(fitted))
            #expect(clock.timing == clock.timing, "asking twice changes nothing")
            // A present that did not wait (0.2 ms) is shown at the first vblank after it, and not fitted.
            let prompt = clock.presented(submittedAt: Self.vblank(17) + 1_000_000, returnedAt: Self.vblank(17) + 1_200_000)
            #expect(prompt == GlassEstimate(time: Self.vblank(18), source: .estimated))
            #expect(clock.timing == .fixed(fitted))
        }
    }

    @Test("Presents made 1 ms after a vblank that return 3 ms later (over a quarter refresh, nearest the vblank before them: a slow copy, not a wait): each shown at the first vblank after it was made, never on the one before it")
    func neverOnAVblankBeforeThePresent() {
        let clock = PresentReturnClock(nominal: Self.hundred, since: 1_000_000_000, throttledByCompositor: false)
        for k: Int64 in 1...15 {
            let glass = clock.presented(submittedAt: Self.vblank(k) + 1_000_000, returnedAt: Self.vblank(k) + 4_000_000)
            #expect(glass == GlassEstimate(time: Self.vblank(k + 1), source: .estimated), "present \(k)")
        }
    }

    @Test("Presents that return at once (0.2 ms) sixteen times: the timer paces, the note says why, the frame is shown when it returned; throttled by the compositor, still the grid")
    func presentsThatDoNotWait() {
        let clock = PresentReturnClock(nominal: Self.hundred, since: 1_000_000_000, throttledByCompositor: false)
        let throttled = PresentReturnClock(nominal: Self.hundred, since: 1_000_000_000, throttledByCompositor: true)
        for k: Int64 in 1...16 {
            _ = throttled.presented(submittedAt: Self.vblank(k) + 3_000_000, returnedAt: Self.vblank(k) + 3_200_000)
            let glass = clock.presented(submittedAt: Self.vblank(k) + 3_000_000, returnedAt: Self.vblank(k) + 3_200_000)
            // Until the 16th, presents count as waiting: the first vblank after the return.
            let expected = k < 16 ? GlassEstimate(time: Self.vblank(k + 1), source: .estimated) : .inferred(Self.vblank(k) + 3_200_000)
            #expect(glass == expected, "present \(k)")
        }
        #expect(clock.timing == .unsynced(reported: Self.hundred))
        #expect(clock.note == .presentsDoNotWaitForVblank)
        #expect(throttled.timing == .fixed(VsyncGrid(origin: 1_000_000_000, rate: Self.hundred)))
        #expect(throttled.note == nil)
    }

    @Test("No rate reported: paced by the timer, and says so")
    func unknownRate() {
        let clock = PresentReturnClock(nominal: nil, since: 0, throttledByCompositor: false)
        #expect(clock.timing == .unsynced(reported: nil))
        #expect(clock.note == .refreshRateUnknown)
        #expect(clock.presented(submittedAt: 5, returnedAt: 9) == .inferred(9))
    }

    @Test("The timer: variable refresh with vsync on; vsync off, or uncapped, with the reported rate; frames shown when presented")
    func timer() {
        let range = (minimum: FrameRate(numerator: 48), maximum: FrameRate(numerator: 144))
        let vrr = TimerClock(vsync: true, variable: range, reported: Self.hundred, uncapped: false)
        #expect(vrr.timing == .variable(minimum: range.minimum, maximum: range.maximum) && vrr.note == nil)
        let off = TimerClock(vsync: false, variable: range, reported: Self.hundred, uncapped: false)
        #expect(off.timing == .unsynced(reported: Self.hundred) && off.note == .vsyncOff)
        let uncapped = TimerClock(vsync: false, variable: nil, reported: nil, uncapped: true)
        #expect(uncapped.timing == .unsynced(reported: nil) && uncapped.note == .uncapped)
        #expect(uncapped.source == .timer)
        #expect(off.presented(submittedAt: 1, returnedAt: 7) == .inferred(7))
        #expect(off.willPresent() == nil && off.takeReports().isEmpty)
    }
}
