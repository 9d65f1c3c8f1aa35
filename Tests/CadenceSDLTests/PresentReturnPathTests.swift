import Testing
@_spi(Programs) @testable import Cadence
@testable import CadenceSDL

/// A vsync'd present path with no platform clock to read (XWayland 24's X
/// Present clock gives no time), in virtual time: a present waits for the
/// first real vblank at or after it (one new frame a vblank) and returns
/// `delay` after that vblank. The backend knows only the returns: its grid
/// and glass times are a real ``PresentReturnClock``'s, its presents go at
/// that clock's lead. The real vblanks are kept to judge it.
final class BlockingReturnBackend: FrameBackend, ScriptedWork {
    let virtualClock = VirtualClock(start: 1_000_000_000)
    /// The display's real vblanks at 60 Hz, unknown to the loop.
    let truth = VsyncGrid(origin: 1_003_000_000, rate: FrameRate(numerator: 60))
    let delay: Nanoseconds
    let displayClock = PresentReturnClock(nominal: FrameRate(numerator: 60), since: 1_000_000_000,
                                          throttledByCompositor: false)
    /// The real vblank each frame was shown on.
    private(set) var shown: [Nanoseconds] = []

    init(delay: Nanoseconds) { self.delay = delay }

    var clock: FrameClock { virtualClock }
    func doWork(_ duration: Nanoseconds) { virtualClock.advance(by: duration) }
    func wait(until deadline: Nanoseconds) { virtualClock.sleep(until: deadline) }
    func currentTiming() -> DisplayTiming { displayClock.timing }
    func vsyncLead(on timing: DisplayTiming) -> Nanoseconds? {
        guard case .fixed(let grid) = timing else { return nil }
        return displayClock.vsyncLead(period: grid.rate.period)
    }

    func present() -> PresentOutcome {
        let submitted = virtualClock.now
        var k = truth.index(atOrAfter: submitted)
        if let last = shown.last, truth.time(at: k) <= last { k = truth.index(after: last) }
        shown.append(truth.time(at: k))
        let returned = truth.time(at: k) + delay
        virtualClock.sleep(until: returned)
        let glass = displayClock.presented(submittedAt: submitted, returnedAt: returned)
        return PresentOutcome(shownAt: glass.time, tracedAt: returned, glassSource: glass.source)
    }
}

/// Runs a fixed number of frames with 2 ms of work each, keeping the records.
final class TwoMillisecondGame: FrameLoopClient {
    let frameLimit: Int
    private var started = 0
    private(set) var records: [FrameRecord] = []
    init(frames: Int) { frameLimit = frames }
    func prepareFrame(_ loop: FrameLoop) -> Bool {
        started += 1
        return started <= frameLimit
    }
    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) { loop.doWork(2_000_000) }
    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) { records.append(record) }
}

@Suite("The clock fitted to present returns keeps the rate its presents reach")
struct PresentReturnPathTests {
    @Test("Returns 0.2, 0.4, 0.6 and 0.8 refresh after the vblank that showed the frame, 2 ms of work (so a plain vsync loop keeps 60 FPS: the return and the work end before the next vblank), the display rate asked: after the first second, every frame on the next real vblank (60 FPS, never locked at 30) and none late on the clock's own grid",
          arguments: [0.2, 0.4, 0.6, 0.8])
    @MainActor func keepsTheDisplayRate(delayInRefreshes: Double) {
        let backend = BlockingReturnBackend(delay: Nanoseconds(delayInRefreshes * 16_666_667))
        let game = TwoMillisecondGame(frames: 360)
        FrameLoop(link: DisplayLink(preferred: .displayRate), backend: backend).run(game)
        let settled = backend.truth.time(at: 60)
        let shown = backend.shown.filter { $0 >= settled }
        let steps = zip(shown, shown.dropFirst()).map { backend.truth.nearestIndex(to: $1) - backend.truth.nearestIndex(to: $0) }
        #expect(steps.count >= 250, "\(steps.count) frames after the first second")
        #expect(steps.allSatisfy { $0 == 1 }, "vblanks per frame: \(Dictionary(grouping: steps, by: { $0 }).mapValues(\.count))")
        let late = game.records.filter { $0.presentTime >= settled && $0.isLate() }
        #expect(late.isEmpty, "\(late.count) late")
    }
}
