import Testing
@_spi(Programs) import Cadence
@_spi(Programs) @testable import CadenceSDL

/// The Wayland presentation clock on feedback the test makes, no compositor:
/// frames presented on vblanks of a true grid the test generates, with the
/// refresh interval and sequence Weston's DRM backend reports.
@Suite("The Wayland presentation clock on synthetic feedback")
struct WaylandClockTickTests {
    static let truth = VsyncGrid(origin: 7_000_000_000, rate: FrameRate(period: 16_665_600))

    static func clock(_ feedback: FakeTicks, nominal: Int64 = 60, since: Nanoseconds = truth.origin) -> WaylandPresentationClock {
        let clock = WaylandPresentationClock(feedback: feedback)
        clock.startMode(standIn: PresentReturnClock(nominal: FrameRate(numerator: nominal), since: since, throttledByCompositor: true))
        return clock
    }

    static func shown(_ k: Int64, on grid: VsyncGrid = truth) -> VblankTick {
        VblankTick(counter: 500 + k, time: grid.time(at: k), refresh: grid.rate.period)
    }

    @Test("Frames a dozen vblanks apart: the grid paced on lies within 0.05 ms of the true vblanks a dozen ahead of the newest report, every frame")
    func sparseFrames() {
        let feedback = FakeTicks()
        let clock = Self.clock(feedback)
        var random = SeededRandom(seed: 40)
        var k: Int64 = 0
        for frame in 0..<150 {
            k += Int64.random(in: 10...14, using: &random)
            feedback.pending = [Self.shown(k)]
            _ = clock.presented(submittedAt: Self.truth.time(at: k) + 1_000_000, returnedAt: Self.truth.time(at: k) + 1_500_000)
            guard case .fixed(let grid) = clock.timing else {
                Issue.record("frame \(frame): no grid")
                continue
            }
            for ahead: Int64 in [1, 12] {
                let t = Self.truth.time(at: k + ahead)
                #expect(abs(grid.time(at: grid.nearestIndex(to: t)) - t) <= 50_000, "frame \(frame) + \(ahead)")
            }
        }
        #expect(clock.source == .waylandPresentation)
    }

    @Test("Weston's refresh rounded to a millihertz (vkms's 75 Hz mode: 1312 × 800 pixels at 78.75 MHz, 13.328254 ms; reported 75.029 Hz, 13.328179 ms, 75 ns a vblank short), frames 40 to 75 vblanks apart as on an emulated machine: before the feedback is fitted (16 frames) the grid stands at that rate, and wherever it is used up to the next frame it lies within 0.05 ms of the true vblanks, every frame")
    func roundedRefresh() {
        let truth = VsyncGrid(origin: 7_000_000_000, rate: FrameRate(period: 13_328_254))
        // Weston: refresh in mHz = (clock × 10⁶ / htotal + vtotal / 2) / vtotal, then 10¹² / mHz ns.
        let millihertz: Int64 = (78_750 * 1_000_000 / 1312 + 800 / 2) / 800
        let reported = 1_000_000_000_000 / millihertz
        let feedback = FakeTicks()
        let clock = WaylandPresentationClock(feedback: feedback)
        clock.startMode(standIn: PresentReturnClock(nominal: FrameRate(numerator: 75), since: truth.origin, throttledByCompositor: true))
        var random = SeededRandom(seed: 75)
        var k: Int64 = 0
        for frame in 0..<60 {
            k += Int64.random(in: 40...75, using: &random)
            feedback.pending = [VblankTick(counter: 900 + k, time: truth.time(at: k), refresh: reported)]
            _ = clock.presented(submittedAt: truth.time(at: k) + 1_000_000, returnedAt: truth.time(at: k) + 1_500_000)
            guard case .fixed(let grid) = clock.timing else {
                Issue.record("frame \(frame): no grid")
                continue
            }
            for ahead: Int64 in [1, 40, 75] {
                let t = truth.time(at: k + ahead)
                let off = abs(grid.time(at: grid.nearestIndex(to: t)) - t)
                #expect(off <= 50_000, "frame \(frame) + \(ahead): \(off) ns off")
            }
        }
    }

    @Test("A new mode (60 to 75 Hz): the 60 Hz grid is forgotten at once, the stand-in paces until the new feedback, then the 75 Hz grid")
    func modeChangeForgetsTheGrid() {
        let feedback = FakeTicks()
        let clock = Self.clock(feedback)
        for k: Int64 in 1...40 {
            feedback.pending = [Self.shown(k)]
            clock.poll()
        }
        #expect(clock.grid?.rate == Self.truth.rate)
        let start = Self.truth.time(at: 41)
        let standIn = PresentReturnClock(nominal: FrameRate(numerator: 75), since: start, throttledByCompositor: true)
        clock.startMode(standIn: standIn)
        #expect(clock.grid == nil && clock.refreshRate == nil && clock.isProvisional)
        #expect(clock.timing == standIn.timing)
        let new = VsyncGrid(origin: start, rate: FrameRate(numerator: 75))
        feedback.pending = [Self.shown(1, on: new)]
        clock.poll()
        #expect(clock.grid == VsyncGrid(origin: new.time(at: 1), rate: FrameRate(period: new.rate.period), measured: true))
    }

    @Test("Feedback without the vsync flag: the compositor repaints on demand, the timer paces, and says so")
    func repaintsOnDemand() {
        let feedback = FakeTicks()
        let clock = Self.clock(feedback)
        feedback.pending = [VblankTick(counter: 0, time: 7_000_000_000, refresh: 0, vsynced: false)]
        clock.poll()
        #expect(clock.timing == .unsynced(reported: FrameRate(numerator: 60)))
        #expect(clock.note == .compositorRepaintsOnDemand && clock.source == .waylandPresentation)
    }
}

@Suite("The choice of display clock from what the platform offers")
struct ClockChoiceTests {
    @Test("Vsync off or variable refresh: the timer; else the compositor's feedback, else X Present, else present returns")
    func choice() {
        for vsync in [false, true] {
            for variable in [false, true] {
                for wayland in [false, true] {
                    for x in [false, true] {
                        let chosen = ClockChoice.choose(vsync: vsync, variableRefresh: variable, waylandFeedback: wayland, xPresent: x)
                        let expected: ClockChoice = !vsync || variable ? .timer
                            : wayland ? .waylandPresentation : x ? .xPresent : .presentReturns
                        #expect(chosen == expected, "vsync \(vsync), vrr \(variable), wayland \(wayland), x \(x)")
                    }
                }
            }
        }
    }
}
