import Testing
@_spi(Programs) @testable import Cadence

/// A simulated compositor's client whose first frames go out on a stand-in
/// grid, as on Wayland feedback or X Present before the platform's vblanks
/// arrive: presented at their targets (a vsync lead of 0), then, from
/// `standInPresents` on, just after the vblank before (the simulated
/// backend's composited lead).
final class StandInFirstBackend: FrameBackend, ScriptedWork {
    let inner: SimulatedBackend
    let standInPresents: Int
    private var presents = 0

    init(_ inner: SimulatedBackend, standInPresents: Int) {
        self.inner = inner
        self.standInPresents = standInPresents
    }

    var clock: FrameClock { inner.clock }
    func currentTiming() -> DisplayTiming { inner.currentTiming() }
    func wait(until deadline: Nanoseconds) { inner.wait(until: deadline) }
    func doWork(_ duration: Nanoseconds) { inner.doWork(duration) }
    func waitForEvents(timeout: Nanoseconds) { inner.waitForEvents(timeout: timeout) }
    func glassFeedback() -> [GlassFeedback] { inner.glassFeedback() }

    func present() -> PresentOutcome {
        presents += 1
        return inner.present()
    }

    func vsyncLead(on timing: DisplayTiming) -> Nanoseconds? {
        presents < standInPresents ? 0 : inner.vsyncLead(on: timing)
    }
}

@MainActor
@Suite("Cap spacing between presents aimed alike")
struct CapSpacingTests {
    @Test("Spacing holds between presents of one aim, and starts over at another (leads more than the tolerance apart)")
    func spacingPerAim() {
        let cap = FrameRate(numerator: 30)
        var spacing = CapSpacing()
        spacing.presented(at: 100 * ms, cap: cap, lead: 0)
        // 33.333 ms less the tolerance, 0.5 ms (1/32 of the interval is more).
        let earliest = 100 * ms + cap.period - 500_000
        #expect(spacing.earliestPresent(cap: cap, lead: 0) == earliest)
        #expect(spacing.earliestPresent(cap: cap, lead: 400_000) == earliest, "a lead within the tolerance is the same aim")
        #expect(spacing.earliestPresent(cap: cap, lead: 15_625_000) == nil, "just after the vblank before: another aim")
        #expect(spacing.earliestPresent(cap: cap, lead: nil) == nil)
        #expect(spacing.earliestPresent(cap: FrameRate(numerator: 20), lead: 0) == nil, "another cap")
        spacing.presented(at: 120 * ms, cap: cap, lead: nil)
        #expect(spacing.earliestPresent(cap: cap, lead: nil) == 120 * ms + cap.period - 500_000)
    }

    @Test("At a cap of 30 on 60 Hz behind a compositor that composites 5 ms before each vblank: once the platform's vblanks arrive, every frame is on the glass at its target")
    func standInGridThenVblanks() {
        let period = FrameRate(numerator: 60).period
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)))
        display.compositeLead = 5 * ms
        let backend = StandInFirstBackend(SimulatedBackend(display: display, feedbackDelay: 20 * ms), standInPresents: 3)
        let game = RecordingGame(frames: 90)
        game.work = { _ in 1 * ms }
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(minimum: 0, maximum: 30, preferred: 30)), backend: backend).run(game)
        // Presented at its target, after the compositor's moment 5 ms before
        // the vblank, a stand-in frame is shown a refresh later. Every frame after
        // goes out 15.6 ms before its vblank (a sixteenth of a refresh after the
        // one before), before that moment: on its target, whatever the stand-in
        // frames' presents were.
        let judged = game.records.filter { $0.frame >= 3 && $0.glassSource == .feedback }
        #expect(judged.count >= 80)
        let late = judged.filter { $0.glassTime != $0.targetTimestamp }
            .map { "frame \($0.frame), \(Double($0.glassTime - $0.targetTimestamp) / 1e6) ms" }
        #expect(late.isEmpty, "late: \(late)")
        // The cap: targets two refreshes apart, and glass times too once on target.
        for (a, b) in zip(judged, judged.dropFirst()) where b.frame == a.frame + 1 {
            #expect(abs(b.targetTimestamp - a.targetTimestamp - 33_333_333) <= 1, "frames \(a.frame) and \(b.frame)")
        }
        #expect(game.records.prefix(3).allSatisfy { $0.glassTime - $0.targetTimestamp <= period + 1 }, "stand-in frames a refresh late at most")
    }
}
