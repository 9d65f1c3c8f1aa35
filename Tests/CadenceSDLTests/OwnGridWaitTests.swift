import Testing
@_spi(Programs) import Cadence
@_spi(Programs) @testable import CadenceSDL

/// The wait, after the first present on a stand-in grid, for the platform's
/// own: the Wayland clock on feedback the test makes, on a clock whose sleeps
/// move virtual time and deliver the compositor's report once it is due.
@Suite("Waiting once for the platform's own grid")
struct OwnGridWaitTests {
    /// Virtual time; `report` reaches the watcher at `arrival`.
    final class ReportingClock: FrameClock {
        private(set) var now: Nanoseconds
        let feedback: FakeTicks
        let report: (tick: VblankTick, arrival: Nanoseconds)?
        private(set) var sleeps = 0
        private var delivered = false

        init(now: Nanoseconds, feedback: FakeTicks, report: (tick: VblankTick, arrival: Nanoseconds)?) {
            self.now = now
            self.feedback = feedback
            self.report = report
        }

        func sleep(until deadline: Nanoseconds) {
            sleeps += 1
            now = max(now, deadline)
            if let report, !delivered, now >= report.arrival {
                feedback.pending.append(report.tick)
                delivered = true
            }
        }
    }

    /// The output's true vblanks: 60 Hz as Weston's DRM backend states it.
    static let truth = VsyncGrid(origin: 5_000_000_000, rate: FrameRate(period: 16_666_666))
    /// A present returned 3 ms after vblank 10, on the stand-in grid.
    static let returned = truth.time(at: 10) + 3_000_000
    static let deadline = returned + SDLBackend.ownGridWait * truth.rate.period

    static func clock(_ feedback: FakeTicks) -> WaylandPresentationClock {
        let clock = WaylandPresentationClock(feedback: feedback)
        clock.startMode(standIn: PresentReturnClock(nominal: FrameRate(numerator: 60), since: truth.origin,
                                                    throttledByCompositor: true))
        return clock
    }

    @Test("The frame shown on the next vblank, its report a millisecond after it: the wait ends within a millisecond of the report, on the output's own vblanks")
    func endsAtTheReport() throws {
        let feedback = FakeTicks()
        let display = Self.clock(feedback)
        #expect(display.isProvisional)
        let vblank = Self.truth.time(at: 11)
        let time = ReportingClock(now: Self.returned, feedback: feedback,
                                  report: (VblankTick(counter: 711, time: vblank, refresh: Self.truth.rate.period), vblank + 1_000_000))
        display.awaitOwnGrid(until: Self.deadline, on: time)
        #expect(!display.isProvisional)
        #expect(time.now >= vblank + 1_000_000 && time.now <= vblank + 2_000_000, "ended \(time.now - vblank) ns after the vblank")
        guard case .fixed(let grid) = display.timing else {
            Issue.record("no grid: \(display.timing)")
            return
        }
        for k: Int64 in 11...20 { #expect(grid.time(at: grid.nearestIndex(to: Self.truth.time(at: k))) == Self.truth.time(at: k)) }
    }

    @Test("No report (a hidden window): the wait ends at its bound, three refreshes after the present, the grid still the stand-in")
    func endsAtTheBound() {
        let feedback = FakeTicks()
        let display = Self.clock(feedback)
        let time = ReportingClock(now: Self.returned, feedback: feedback, report: nil)
        display.awaitOwnGrid(until: Self.deadline, on: time)
        #expect(time.now == Self.deadline)
        #expect(display.isProvisional)
        // A read each millisecond: 50 ms in all.
        #expect(time.sleeps == 50)
    }

    @Test("A clock already on its own grid does not wait")
    func noWaitOnItsOwnGrid() {
        let feedback = FakeTicks()
        let display = Self.clock(feedback)
        feedback.pending = [VblankTick(counter: 700, time: Self.truth.time(at: 10), refresh: Self.truth.rate.period)]
        _ = display.presented(submittedAt: Self.returned - 1_000_000, returnedAt: Self.returned)
        #expect(!display.isProvisional)
        let time = ReportingClock(now: Self.returned, feedback: feedback, report: nil)
        display.awaitOwnGrid(until: Self.deadline, on: time)
        #expect(time.sleeps == 0 && time.now == Self.returned)
    }
}
