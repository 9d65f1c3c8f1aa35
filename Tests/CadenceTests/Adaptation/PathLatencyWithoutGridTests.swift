import Testing
@_spi(Programs) @testable import Cadence

/// Behind a compositor whose reports give no vblank grid the loop paces on its
/// own timer, and a frame reaches the glass a constant time after its commit:
/// the loop learns that from a whole window of reports and plans its targets on
/// it. In virtual time, presents returning at once as a Wayland client's do;
/// the truth is the simulated display's own flips.
@MainActor
@Suite("The present path's latency without a grid")
struct PathLatencyWithoutGridTests {
    static let period = FrameRate(numerator: 60).period

    /// `frames` frames at `fps` on `display` with no vblank grid, reports 40
    /// ms after each flip; the records and each frame's flip.
    func run(_ display: SimulatedDisplay, fps: Double, frames: Int,
             work: @escaping (Int) -> Nanoseconds = { _ in 2 * ms }) -> (records: [FrameRecord], flips: [Nanoseconds]) {
        var flips: [Nanoseconds] = []
        display.onFlip = { flips.append($0.at) }
        let game = ScriptedGame(frames: frames)
        game.work = work
        let backend = SimulatedBackend(display: display, feedbackDelay: 40 * ms)
        backend.presentsReturnAtOnce = true
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: fps)), backend: backend).run(game)
        return (game.records, flips)
    }

    /// The compositor's refresh is 1/60 s rounded to a nanosecond, the timer's
    /// slots exact: a few hundred frames drift apart by under a microsecond.
    static let rounding: Nanoseconds = 1000

    /// How many frames are planned before a whole window of reports is back:
    /// the window, and those made in the 40 ms + a refresh each report takes.
    static let learning = PathLatency.window + 4
    /// The same for a slower path: every report of the window must say so.
    static let raising = PathLatency.window + 4

    @Test("A compositor that shows each commit a refresh after it (Mutter's headless monitor while its frame clock runs): targets a refresh after the slot", arguments: [60.0, 30.0])
    func aRefreshAfterTheCommit(fps: Double) {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)), vsync: false)
        display.repaintOnDemand = (delay: Self.period, interval: Self.period)
        let (records, flips) = run(display, fps: fps, frames: 120)
        // The timer commits each frame at its slot; shown one refresh later.
        for record in records.dropFirst(Self.learning) {
            #expect(abs(record.pathLatency - Self.period) <= Self.rounding)
            #expect(abs(flips[record.frame] - record.targetTimestamp) <= Self.rounding, "frame \(record.frame) off its target")
        }
        for record in records { #expect(flips[record.frame] >= record.targetTimestamp, "frame \(record.frame) early") }
        let shown = records.dropFirst(Self.learning).map { flips[$0.frame] }
        for i in 1..<shown.count { #expect(abs(Double(shown[i] - shown[i - 1]) - 1e9 / fps) <= Double(Self.rounding)) }
        #expect(records.filter { $0.isLate() }.count <= Self.learning)
    }

    /// Weston's headless output: its timer ticks a refresh apart and repaints
    /// 7 ms before a tick, or idles when nothing came by then.
    static func weston() -> SimulatedDisplay {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)), vsync: false)
        display.repaintTimer = (interval: period, window: 7 * ms)
        return display
    }

    @Test("A compositor that repaints on a timer which restarts when idle (Weston's headless output): a refresh after the commit, the timer running (60) or restarted at each commit (30)", arguments: [60.0, 30.0])
    func aTimerThatRestarts(fps: Double) {
        let (records, flips) = run(Self.weston(), fps: fps, frames: 120)
        // At 60 the first commit restarts the timer, a refresh later; each next
        // commit, at its slot, is 9.67 ms before the tick a refresh after the
        // last, so shown there: a refresh after its slot. At 30 the timer
        // idles between frames and restarts at each commit: the same.
        for record in records.dropFirst(Self.learning) {
            #expect(abs(record.pathLatency - Self.period) <= Self.rounding)
            #expect(abs(flips[record.frame] - record.targetTimestamp) <= Self.rounding, "frame \(record.frame) off its target")
        }
        for record in records { #expect(flips[record.frame] >= record.targetTimestamp, "frame \(record.frame) early") }
        let shown = records.dropFirst(Self.learning).map { flips[$0.frame] }
        for i in 1..<shown.count { #expect(abs(Double(shown[i] - shown[i - 1]) - 1e9 / fps) <= Double(Self.rounding)) }
    }

    @Test("A path whose latency changes is followed: an idle compositor's render time rises from 2 to 5 ms and falls back")
    func followsAChange() {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)), vsync: false)
        // Mutter's idle headless monitor: shown its render time after the commit.
        display.repaintOnDemand = (delay: 2 * ms, interval: Self.period)
        let (rise, fall) = (40, 80)
        let (records, flips) = run(display, fps: 30, frames: 120, work: { frame in
            if frame == rise { display.repaintOnDemand = (delay: 5 * ms, interval: Self.period) }
            if frame == fall { display.repaintOnDemand = (delay: 2 * ms, interval: Self.period) }
            return 2 * ms
        })
        // Each commit goes out at its slot: shown 2 ms, then 5 ms, then 2 ms after it.
        let expected: [(range: Range<Int>, latency: Nanoseconds)] = [
            (Self.learning..<rise, 2 * ms), ((rise + Self.raising)..<fall, 5 * ms), ((fall + Self.learning)..<120, 2 * ms),
        ]
        for (range, latency) in expected {
            for record in records[range] {
                #expect(flips[record.frame] == record.slotTimestamp + latency)
                #expect(record.pathLatency == latency, "frame \(record.frame) planned on \(record.pathLatency) ns")
            }
        }
        // Slower: late only until a whole window says so; faster: early only
        // the frames planned before the first faster report came back.
        let late = records.filter { $0.isLate() }.map(\.frame)
        #expect(late.allSatisfy { $0 < Self.learning || (rise..<(rise + Self.raising)).contains($0) }, "late: \(late)")
        let early = records.filter { flips[$0.frame] < $0.targetTimestamp }.map(\.frame)
        #expect(early.allSatisfy { (fall..<(fall + Self.learning)).contains($0) }, "early: \(early)")
    }
}
