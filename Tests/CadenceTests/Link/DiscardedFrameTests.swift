import Testing
@_spi(Programs) @testable import Cadence

/// A frame the compositor discarded (`wp_presentation_feedback.discarded`)
/// was never shown by itself, so the vblank after its present, which the
/// record carried until the report, is not a measure of when it reached the
/// glass. Seen on Weston with SDL's software renderer: such a frame was
/// labelled measured at a time before the previous frame's own feedback.
@MainActor
@Suite("Frames the compositor discarded")
struct DiscardedFrameTests {
    @Test("A discarded frame's glass time is an estimate, never counted as measured; the others keep their feedback")
    func discardedIsNotMeasured() {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)))
        let backend = DiscardingBackend(SimulatedBackend(display: display, feedbackDelay: 20 * ms), discarding: [5, 9])
        let game = RecordingGame(frames: 30)
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: 60)), backend: backend).run(game)

        let discarded = game.records.filter { backend.discardedFrames.contains($0.frame) }
        #expect(discarded.count == 2)
        for record in discarded { #expect(record.glassSource == .estimated, "frame \(record.frame): \(record.glassSource)") }
        let reported = game.records.filter { !backend.discardedFrames.contains($0.frame) && $0.glassSource == .feedback }
        #expect(reported.count >= 28 - FrameLoop.glassReportWait)
        #expect(!game.records.contains { $0.glassSource == .vblank && backend.discardedFrames.contains($0.frame) })
    }
}

/// A simulated backend whose provisional glass times are a measured clock's
/// vblank after the present (as X Present's or a Wayland clock's are), and
/// whose compositor discards the frames of the tickets given.
private final class DiscardingBackend: FrameBackend {
    let inner: SimulatedBackend
    let discardedTickets: Set<Int>
    private(set) var discardedFrames: Set<Int> = []
    private var presented = 0

    init(_ inner: SimulatedBackend, discarding tickets: Set<Int>) {
        self.inner = inner
        discardedTickets = tickets
    }

    var clock: FrameClock { inner.clock }
    func currentTiming() -> DisplayTiming { inner.currentTiming() }
    func wait(until deadline: Nanoseconds) { inner.wait(until: deadline) }
    func vsyncLead(on timing: DisplayTiming) -> Nanoseconds? { inner.vsyncLead(on: timing) }

    func present() -> PresentOutcome {
        let outcome = inner.present()
        if let ticket = outcome.feedbackTicket, discardedTickets.contains(ticket) { discardedFrames.insert(presented) }
        presented += 1
        return PresentOutcome(shownAt: outcome.shownAt, tracedAt: outcome.tracedAt, glassSource: .vblank,
                              feedbackTicket: outcome.feedbackTicket)
    }

    func glassFeedback() -> [GlassFeedback] {
        inner.glassFeedback().map {
            discardedTickets.contains($0.ticket) ? GlassFeedback(ticket: $0.ticket, glassTime: nil) : $0
        }
    }
}
