import Testing
@_spi(Programs) @testable import Cadence

/// Xorg's modesetting driver with no GPU, as the real-time backend meets it,
/// in virtual time: X Present measures the vblanks (a measured grid), a
/// present is a copy that takes `copy` and returns when it is done, whatever
/// the vblanks, and the display shows the frame at the first vblank after the
/// copy ended (one new frame a vblank). Presents go out with the measured
/// clock's lead, as the X Present clock gives it.
final class CopyingServerBackend: FrameBackend, ScriptedWork {
    let virtualClock = VirtualClock(start: 1_000_000_000)
    let grid: VsyncGrid
    let copy: Nanoseconds
    private var lastShown: Nanoseconds?
    /// Every new frame: when its copy started, and when it was shown.
    private(set) var frames: [(submitted: Nanoseconds, shown: Nanoseconds)] = []

    init(refresh: FrameRate, copy: Nanoseconds) {
        grid = VsyncGrid(origin: 7_000_000, rate: refresh, nominal: refresh, measured: true)
        self.copy = copy
    }

    var clock: FrameClock { virtualClock }
    func doWork(_ duration: Nanoseconds) { virtualClock.advance(by: duration) }
    func wait(until deadline: Nanoseconds) { virtualClock.sleep(until: deadline) }
    func currentTiming() -> DisplayTiming { .fixed(grid) }
    func vsyncLead(on timing: DisplayTiming) -> Nanoseconds? { PresentPlan.measuredVsyncLead(period: grid.rate.period) }

    func present() -> PresentOutcome {
        let submitted = virtualClock.now
        virtualClock.advance(by: copy)
        var k = grid.index(after: virtualClock.now)
        if let lastShown, grid.time(at: k) <= lastShown { k = grid.index(after: lastShown) }
        let shown = grid.time(at: k)
        lastShown = shown
        frames.append((submitted, shown))
        return PresentOutcome(shownAt: shown, tracedAt: virtualClock.now, glassSource: .vblank)
    }
}

/// A frame whose work and copy fit in a refresh keeps every vblank, as a
/// plain vsync loop (work, present, again) does: the loop must not take the
/// refresh from the copy by waiting before the present. Seen on vkms under
/// emulation at 6 Hz, where the copy takes 130 ms of the 166.7 ms refresh:
/// presenting three quarters of a refresh before the vblank left the copy
/// 125 ms, and frames missed vblanks the plain loop beside them kept.
@MainActor
@Suite("A slow copy keeps every vblank a plain loop keeps")
struct SlowCopyTests {
    /// The vblanks, over `seconds` from the first frame shown, that showed a
    /// new frame of a plain loop doing `work` then presenting, back to back.
    func plainLoop(refresh: FrameRate, work: Nanoseconds, copy: Nanoseconds, seconds: Nanoseconds) -> Int {
        let backend = CopyingServerBackend(refresh: refresh, copy: copy)
        var shown: [Nanoseconds] = []
        while shown.count < 2 || shown.last! < shown[0] + seconds {
            backend.doWork(work)
            shown.append(backend.present().shownAt)
        }
        return shown.filter { $0 < shown[0] + seconds }.count
    }

    /// The loop's records over `seconds` of `limit`, `work` a frame, and what the backend showed.
    func run(_ limit: FrameRateLimit, refresh: FrameRate, work: Nanoseconds, copy: Nanoseconds,
             seconds: Nanoseconds) -> [FrameRecord] {
        let backend = CopyingServerBackend(refresh: refresh, copy: copy)
        let loop = FrameLoop(link: DisplayLink(jitterTolerance: 200_000), backend: backend)
        loop.rateLimit = limit
        let game = ScriptedGame(frames: Int.max)
        game.work = { _ in work }
        let end = backend.clock.now + seconds + 2 * refresh.period
        game.beforeFrame = { loop, now in if now >= end { loop.link.invalidate() } }
        loop.run(game)
        return game.records
    }

    @Test("At the display's rate, 6 Hz, 30 ms of work and a 130 ms copy (160 ms of a 166.7 ms refresh): a frame every vblank, as the plain loop's, none late; 60 Hz with 2.5 and 14 ms alike",
          arguments: [(6.0, 30 * ms, 130 * ms), (60.0, 2_500_000, 14 * ms)])
    func displayRate(_ display: (hz: Double, work: Nanoseconds, copy: Nanoseconds)) {
        let refresh = FrameRate(hz: display.hz)
        let seconds = 4 * s
        // First principles: the plain loop's turn (work + copy) is shorter than a refresh, so each
        // copy ends in the refresh after the last one's and every vblank shows a new frame.
        let plain = plainLoop(refresh: refresh, work: display.work, copy: display.copy, seconds: seconds)
        let vblanks = Int((seconds + refresh.period - 1) / refresh.period)
        #expect(plain >= vblanks - 1, "the plain loop showed \(plain) of \(vblanks) vblanks")
        let records = run(.displayRate, refresh: refresh, work: display.work, copy: display.copy, seconds: seconds)
        // After the first frame, which starts between two vblanks.
        let judged = Array(records.dropFirst())
        let late = judged.filter { $0.glassTime > $0.targetTimestamp }
        #expect(late.isEmpty, "\(late.count) of \(judged.count) frames late, first at frame \(late.first?.frame ?? -1)")
        #expect(judged.allSatisfy { $0.glassTime >= $0.targetTimestamp }, "a frame before its target")
        let gaps = zip(judged, judged.dropFirst()).map { ($1.glassTime - $0.glassTime + refresh.period / 2) / refresh.period }
        #expect(gaps.allSatisfy { $0 == 1 }, "vblanks between frames: \(Set(gaps).sorted())")
        let shown = judged.filter { $0.glassTime < judged[0].glassTime + seconds }.count
        #expect(shown >= plain, "the loop showed \(shown) frames in \(seconds / s) s, the plain loop \(plain)")
    }

    @Test("A cap of 3 on 6 Hz with 170 ms of work and a 130 ms copy (300 ms of 333.3): every second vblank, none late, never above the cap")
    func capped() {
        let refresh = FrameRate(hz: 6)
        // From the second second: the first frames start where the first one's copy ended, between the
        // cadence's slots, and come late until the waits before the presents put the callbacks on it.
        let all = run(.cap(3), refresh: refresh, work: 170 * ms, copy: 130 * ms, seconds: 5 * s)
        let records = all.filter { $0.callbackStart >= all[0].callbackStart + 1 * s }
        #expect(records.count >= 11)
        let late = records.filter { $0.glassTime > $0.targetTimestamp }
        #expect(late.isEmpty, "\(late.count) of \(records.count) frames late")
        #expect(records.allSatisfy { $0.glassTime >= $0.targetTimestamp }, "a frame before its target")
        let gaps = zip(records, records.dropFirst()).map { ($1.glassTime - $0.glassTime + refresh.period / 2) / refresh.period }
        #expect(gaps.allSatisfy { $0 == 2 }, "vblanks between frames: \(Set(gaps).sorted())")
    }
}
