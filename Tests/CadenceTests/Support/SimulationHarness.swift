@_spi(Programs) @testable import Cadence

/// A scripted game for tests: runs a simulated display for a number of frames,
/// doing scripted work and applying scripted rate changes, and keeps every
/// frame and record so tests can check the timing rules exactly.
final class ScriptedGame: FrameLoopClient {
    var frames: [DisplayLinkFrame] = []
    var records: [FrameRecord] = []
    var idleCalls = 0
    let frameLimit: Int
    /// Work for a frame, by callback index.
    var work: (Int) -> Nanoseconds = { _ in 1_000_000 }
    /// Called before each frame with the loop and the current virtual time.
    var beforeFrame: (FrameLoop, Nanoseconds) -> Void = { _, _ in }
    /// What an idle (paused) turn does: by default, let 100 ms pass.
    var onIdle: (FrameLoop) -> Void = { loop in loop.backend.wait(until: loop.clock.now + 100_000_000) }

    init(frames: Int) { frameLimit = frames }

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        beforeFrame(loop, loop.clock.now)
        return frames.count < frameLimit
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        frames.append(frame)
        loop.doWork(work(frame.index))
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) { records.append(record) }

    func idle(_ loop: FrameLoop) -> Bool {
        idleCalls += 1
        onIdle(loop)
        return idleCalls < 10_000
    }
}

/// A simulated backend that also keeps every flip the panel made, new frames
/// and the driver's repeats, so tests can check the gaps the panel really saw.
final class FlipRecordingBackend: FrameBackend, ScriptedWork {
    let inner: SimulatedBackend
    /// False for a driver that keeps vsync on whatever is asked.
    let canTurnVsyncOff: Bool
    private(set) var flips: [(at: Nanoseconds, isRepeat: Bool)] = []

    init(_ display: SimulatedDisplay, canTurnVsyncOff: Bool = true) {
        inner = SimulatedBackend(display: display)
        self.canTurnVsyncOff = canTurnVsyncOff
        display.onFlip = { [unowned self] flip in flips.append((flip.at, flip.isRepeat)) }
    }

    var clock: FrameClock { inner.clock }
    func currentTiming() -> DisplayTiming { inner.currentTiming() }
    func doWork(_ duration: Nanoseconds) { inner.doWork(duration) }
    func wait(until deadline: Nanoseconds) { inner.wait(until: deadline) }
    func present() -> PresentOutcome { inner.present() }
    func uncappedChanged(to uncapped: Bool) {
        if canTurnVsyncOff { inner.uncappedChanged(to: uncapped) }
    }
}

/// Runs `game` on `display` with a link preferring `fps` (0 = display rate).
@MainActor @discardableResult
func simulate(_ display: SimulatedDisplay, fps: Double, game: ScriptedGame) -> FrameLoop {
    let loop = FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: fps)),
                         backend: SimulatedBackend(display: display))
    loop.run(game)
    return loop
}

func hz(_ value: Double) -> FrameRate { FrameRate(hz: value) }
let ms: Nanoseconds = 1_000_000
/// One second in nanoseconds.
let s: Nanoseconds = 1_000_000_000

extension FrameRecord {
    /// The rate the link paced the frame at, in Hz, 0 when nothing did: what
    /// the trace's `effective_hz` column prints.
    var pacedHz: Double { rate?.hz ?? 0 }
}
