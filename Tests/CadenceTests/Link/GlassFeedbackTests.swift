import Testing
@_spi(Programs) @testable import Cadence

/// Statistics from the platform's per-frame reports, which a compositor sends
/// after the present: in virtual time, on a simulated display whose backend
/// reports each frame's flip `feedbackDelay` after it happened. The truth is
/// the display's own flips, recorded as it makes them.
@MainActor
@Suite("Glass times reported after the present")
struct GlassFeedbackTests {
    /// A 60 Hz display (exact 60/1 Hz), a cap of `fps`, `work` per frame,
    /// reports `delay` after each flip; every record, every flip, and the
    /// number of frames run when each record was handed on.
    func run(fps: Double, frames: Int, delay: Nanoseconds, compositeLead: Nanoseconds = 0,
             work: @escaping (Int) -> Nanoseconds = { _ in 2 * ms })
        -> (records: [FrameRecord], flips: [Nanoseconds], handedAfter: [Int], statistics: FrameStatistics) {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)))
        display.compositeLead = compositeLead
        var flips: [Nanoseconds] = []
        display.onFlip = { flips.append($0.at) }
        let backend = SimulatedBackend(display: display, feedbackDelay: delay)
        let game = RecordingGame(frames: frames)
        game.work = work
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: fps)), backend: backend).run(game)
        return (game.records, flips, game.handedAfter, game.statistics)
    }

    @Test("Reports that come a frame and a half late complete the records, in order, without holding the loop")
    func lateReportsCompleteRecords() {
        let (records, flips, handedAfter, statistics) = run(fps: 30, frames: 120, delay: 25 * ms)
        #expect(records.map(\.frame) == Array(0..<120), "every frame handed on once, in order")
        // Every frame but those still in flight when the loop ended carries
        // the display's own flip time, reported.
        let reported = records.filter { $0.glassSource == .feedback }
        #expect(reported.count >= 120 - FrameLoop.glassReportWait)
        for record in reported { #expect(record.glassTime == flips[record.frame]) }
        // A report 25 ms after a flip, with frames 2/60 s apart: the record is
        // handed on after the next frame's present, never later than the wait allows.
        for (i, after) in handedAfter.enumerated() {
            #expect(after - (i + 1) <= FrameLoop.glassReportWait, "frame \(i) handed on after \(after) frames ran")
        }
        #expect(handedAfter.first == 2, "frame 0's report (25 ms after its flip) is read after frame 1's present")
        // The flips are 2/60 s apart: 30 FPS exactly, nothing late.
        let summary = statistics.runSummary
        #expect(statistics.lateCount == 0)
        #expect(summary.hitchRatio == 0)
        let achieved = Double(reported.count - 1) * 1e9 / Double(reported.last!.glassTime - reported.first!.glassTime)
        #expect(abs(achieved - 30) < 1e-6)
        #expect(summary.line.contains("glass times measured (the platform's per-frame feedback) \(reported.count)"))
    }

    @Test("Behind a compositor that composites 7/8 of a refresh before each vblank (Mutter's default), every frame is on the glass at its target", arguments: [30.0, 60.0])
    func compositorDeadline(fps: Double) {
        // Mutter's frame clock, before it has measured its rendering, composites
        // the frame for a vblank 7/8 of a refresh (14.583 ms at 60 Hz) before
        // it: a frame committed later waits for the next vblank.
        let period = FrameRate(numerator: 60).period
        let (records, flips, _, statistics) = run(fps: fps, frames: 120, delay: 20 * ms,
                                                  compositeLead: period * 7 / 8, work: { _ in 1 * ms })
        // From the rules: each frame is shown at its target vblank, never before
        // and never a vblank after; the flips are 60/fps refreshes apart.
        let judged = records.dropFirst().filter { $0.glassSource == .feedback }
        #expect(judged.count >= 100)
        for record in judged {
            #expect(flips[record.frame] == record.targetTimestamp, "frame \(record.frame) on the glass \(flips[record.frame] - record.targetTimestamp) ns after its target")
        }
        // Exact vblanks of 60/1 Hz: the nanosecond grid rounds each one, so an interval is within 1 ns of 1/fps.
        for i in 2..<flips.count { #expect(abs(Double(flips[i] - flips[i - 1]) - 1e9 / fps) <= 1) }
        #expect(statistics.lateCount == 0)
    }

    @Test("A frame whose work overruns is late by its flip less its target, measured from the report")
    func lateFrameFromReport() {
        // Frame 40 works 45 ms at 30 FPS (33.3 ms a frame): it cannot make its target.
        let (records, flips, _, statistics) = run(fps: 30, frames: 90, delay: 25 * ms,
                                                  work: { $0 == 40 ? 45 * ms : 2 * ms })
        let judged = records.filter { $0.glassSource == .feedback }
        // Late, from the rules: on the glass (the display's flip) after the target, beyond the tolerance.
        let late = judged.filter { flips[$0.frame] - $0.targetTimestamp > FrameRecord.lateTolerance }
        #expect(late.map(\.frame).contains(40))
        let unreported = records.filter { $0.glassSource != .feedback }
        #expect(statistics.lateCount == late.count + unreported.filter { $0.isLate() }.count)
        // Frame 40 reaches the glass at the first vblank (a multiple of 1/60 s)
        // after its work ends, which lies after its target.
        let frame40 = records[40]
        #expect(frame40.glassTime == flips[40])
        #expect(frame40.glassTime > frame40.targetTimestamp)
        // Each vblank is k/60 s rounded to the nanosecond, so 60 times it is within 30 ns of a whole second.
        let offGrid = (frame40.glassTime * 60) % 1_000_000_000
        #expect(offGrid <= 30 || offGrid >= 1_000_000_000 - 30, "on the 60 Hz grid, to the nanosecond")
    }

    @Test("Reports that never come: records handed on after the wait, judged by submission, not counted late")
    func missingReports() {
        let (records, _, handedAfter, statistics) = run(fps: 30, frames: 60, delay: 3_600_000 * ms)
        #expect(records.count == 60)
        #expect(records.allSatisfy { $0.glassSource == .inferred })
        for (i, after) in handedAfter.enumerated().dropLast(FrameLoop.glassReportWait) {
            #expect(after == i + 1 + FrameLoop.glassReportWait)
        }
        // No glass time: each frame was submitted before its target, so none is late.
        #expect(records.allSatisfy { $0.presentSubmit <= $0.targetTimestamp })
        #expect(statistics.lateCount == 0)
        #expect(statistics.runSummary.line.hasSuffix("glass times inferred (when the present returned; late = submitted after target) 60"))
    }

    @Test("Without a glass, a present's own copy is not lateness; with one, the glass time is judged")
    func latenessBySource() {
        // Submitted 1 ms before its target, returned 5 ms after it (a 6 ms copy).
        var record = FrameRecord(frame: 0, timestamp: 0, targetTimestamp: 100 * ms, presentTime: 105 * ms,
                                 delta: 16 * ms, limit: .cap(60), rate: hz(60), refreshMode: .none,
                                 callbackStart: 90 * ms, workEnd: 95 * ms, presentSubmit: 99 * ms,
                                 skippedFrames: 0, glassTime: 105 * ms, glassSource: .inferred)
        #expect(record.lateness == -1 * ms)
        #expect(!record.isLate())
        record.glassSource = .vblank
        #expect(record.lateness == 5 * ms)
        #expect(record.isLate())
    }
}

/// A scripted game that also notes, for each record handed on, how many
/// frames had run by then, and keeps the statistics the sample keeps.
final class RecordingGame: FrameLoopClient {
    var records: [FrameRecord] = []
    var handedAfter: [Int] = []
    var statistics = FrameStatistics()
    var work: (Int) -> Nanoseconds = { _ in 2 * ms }
    private var ran = 0
    private let frameLimit: Int

    init(frames: Int) { frameLimit = frames }

    func prepareFrame(_ loop: FrameLoop) -> Bool { ran < frameLimit }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        ran += 1
        loop.doWork(work(frame.index))
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        records.append(record)
        handedAfter.append(ran)
        statistics.record(record)
    }
}
