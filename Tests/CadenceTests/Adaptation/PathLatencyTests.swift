import Testing
@_spi(Programs) @testable import Cadence

/// A target is when the frame reaches the glass on its path: behind a
/// compositor that shows every frame later than the vblank (or moment) it was
/// presented for, the loop learns that latency from the reports and plans its
/// targets on it, so only a frame that missed what the path promised is late.
/// In virtual time; the truth is the simulated display's own flips.
@MainActor
@Suite("The present path's latency")
struct PathLatencyTests {
    static let period = FrameRate(numerator: 60).period

    /// `frames` frames at `fps` on `display`, reports 40 ms after each flip
    /// (two or three frames later, as a compositor's come), presents returning
    /// at once where `presentsReturnAtOnce` (as a Wayland client's do); the
    /// records and each frame's flip.
    func run(_ display: SimulatedDisplay, fps: Double, frames: Int, presentsReturnAtOnce: Bool = false,
             work: @escaping (Int) -> Nanoseconds = { _ in 2 * ms }) -> (records: [FrameRecord], flips: [Nanoseconds]) {
        var flips: [Nanoseconds] = []
        display.onFlip = { flips.append($0.at) }
        let game = ScriptedGame(frames: frames)
        game.work = work
        let backend = SimulatedBackend(display: display, feedbackDelay: 40 * ms)
        backend.presentsReturnAtOnce = presentsReturnAtOnce
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: fps)), backend: backend).run(game)
        return (game.records, flips)
    }

    /// The simulated present blocks until its frame is on the glass, so a
    /// path two refreshes long runs at most every other vblank: 30 and 20 FPS.
    @Test("A compositor that shows each commit a refresh after the vblank after it: targets a refresh later, every frame on its target after the first reports", arguments: [30.0, 20.0])
    func aRefreshLater(fps: Double) {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)))
        // A commit in the refresh before vblank V is composited for V+1.
        display.compositeLead = Self.period
        let (records, flips) = run(display, fps: fps, frames: 180)
        // Frames planned before the first report came are a refresh late; from
        // then on the path's refresh is in every target.
        let learned = records.dropFirst(PathLatency.evidence + 4)
        for record in learned {
            #expect(abs(record.pathLatency - Self.period) <= 1, "a refresh, as the grid rounds its vblanks")
            #expect(flips[record.frame] == record.targetTimestamp, "frame \(record.frame): on the glass \(flips[record.frame] - record.targetTimestamp) ns after its target")
        }
        // Never on the glass before its target, learning or not; targets on the 60/1 Hz vblanks (1 ns rounding).
        for record in records {
            #expect(flips[record.frame] >= record.targetTimestamp)
            let phase = Double(record.targetTimestamp) * 60 / 1e9
            #expect(abs(phase - phase.rounded()) * Double(Self.period) <= 1)
        }
        // The rate is kept: flips 60/fps refreshes apart once learned.
        let shown = learned.map { flips[$0.frame] }
        for i in 1..<shown.count { #expect(abs(Double(shown[i] - shown[i - 1]) - 1e9 / fps) <= 1) }
        #expect(records.filter { $0.isLate() }.count <= PathLatency.evidence + 4)
    }

    @Test("A path whose latency changes is followed: a slower one once every recent report says so, a faster one at its first report")
    func followsAndUnlearns() {
        let grid = VsyncGrid(origin: 0, rate: FrameRate(numerator: 60))
        var latency = PathLatency()
        latency.follow(.fixed(grid))
        #expect(latency.latency(on: .fixed(grid)) == 0, "nothing learned: shown at its slot")
        // A frame for slot k shown `late` after it, its work done 5 ms before the slot.
        var frame = 0
        func report(late: Nanoseconds, planned: Nanoseconds) {
            let slot = grid.time(at: Int64(frame + 1))
            var record = FrameRecord(frame: frame, timestamp: 0, targetTimestamp: slot + planned, presentTime: slot,
                                     delta: Self.period, limit: .displayRate, rate: grid.rate, refreshMode: .fixed,
                                     callbackStart: slot - 10 * ms, workEnd: slot - 5 * ms, presentSubmit: slot - 5 * ms,
                                     skippedFrames: 0, glassTime: slot + late, glassSource: .feedback)
            record.pathLatency = planned
            latency.observe(record)
            frame += 1
        }
        // A report or a few (a frame shown late across a mode switch) are not a path.
        for _ in 1..<PathLatency.evidence { report(late: Self.period, planned: 0) }
        #expect(latency.latency(on: .fixed(grid)) == 0)
        report(late: Self.period, planned: 0)
        #expect(latency.latency(on: .fixed(grid)) == Self.period)
        for _ in PathLatency.evidence..<PathLatency.window { report(late: Self.period, planned: 0) }
        #expect(latency.latency(on: .fixed(grid)) == Self.period)
        // Reports an eighth of a refresh short of one are the grid's error; more short, the path's.
        #expect(PathLatencyTests.learned(Self.period - Self.period / 8 + 1000, on: grid) == Self.period)
        #expect(PathLatencyTests.learned(Self.period - Self.period / 4, on: grid) == 0)
        // One frame shown at its slot: the next is planned there at once.
        report(late: 0, planned: Self.period)
        #expect(latency.latency(on: .fixed(grid)) == 0)
        // Slower again: not until the faster report left the window.
        for _ in 0..<(PathLatency.window - 1) { report(late: Self.period, planned: 0) }
        #expect(latency.latency(on: .fixed(grid)) == 0)
        report(late: Self.period, planned: 0)
        #expect(latency.latency(on: .fixed(grid)) == Self.period)
        // A frame whose own work ended after its slot, or whose glass was
        // only estimated, teaches nothing.
        let slot = grid.time(at: 500)
        var late = FrameRecord(frame: 500, timestamp: 0, targetTimestamp: slot, presentTime: slot, delta: Self.period,
                               limit: .displayRate, rate: grid.rate, refreshMode: .fixed, callbackStart: slot - 20 * ms,
                               workEnd: slot + 1 * ms, presentSubmit: slot + 1 * ms, skippedFrames: 0,
                               glassTime: slot + Self.period, glassSource: .feedback)
        latency.observe(late)
        late.workEnd = slot - 1 * ms
        late.glassTime = slot
        late.glassSource = .estimated
        latency.observe(late)
        #expect(latency.latency(on: .fixed(grid)) == Self.period)
        // Without a grid nothing is learned, however steady the reports.
        #expect(PathLatencyTests.learned(12 * ms) == 0)
        #expect(PathLatencyTests.learned(12 * ms, spread: 1 * ms) == 0)
        // Another display: learned afresh.
        latency.follow(.fixed(VsyncGrid(origin: 0, rate: FrameRate(numerator: 144))))
        #expect(latency.latency(on: .fixed(grid)) == 0)
    }
}

extension PathLatencyTests {
    /// What a window of reports teaches on `grid` (none: a timer at 60 Hz
    /// with no vsync), the reports `late` after their slots, every other one `spread` more.
    static func learned(_ late: Nanoseconds, spread: Nanoseconds = 0, on grid: VsyncGrid? = nil) -> Nanoseconds {
        var latency = PathLatency()
        let timer = VsyncGrid(origin: 0, rate: FrameRate(numerator: 60))
        for frame in 0..<PathLatency.window {
            let slot = (grid ?? timer).time(at: Int64(frame + 1))
            latency.observe(FrameRecord(frame: frame, timestamp: 0, targetTimestamp: slot, presentTime: slot,
                                        delta: period, limit: .displayRate, rate: timer.rate,
                                        refreshMode: grid == nil ? .none : .fixed,
                                        callbackStart: slot - 10 * ms, workEnd: slot - 5 * ms,
                                        presentSubmit: grid == nil ? slot : slot - 5 * ms, skippedFrames: 0,
                                        glassTime: slot + late + Nanoseconds(frame % 2) * spread, glassSource: .feedback))
        }
        return latency.latency(on: grid.map { .fixed($0) } ?? .unsynced(reported: timer.rate))
    }
}
