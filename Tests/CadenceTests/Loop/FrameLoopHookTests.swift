import Testing
@_spi(Programs) @testable import Cadence

@MainActor
@Suite("Frame loop: the chores around the game's frame")
struct FrameLoopHookTests {
    @Test("The backend's flush runs after each callback and before its present, so its work counts as the frame's")
    func hookRunsBetweenCallbackAndPresent() {
        final class Ordering: FrameBackend, ScriptedWork {
            let inner = SimulatedBackend(display: SimulatedDisplay(panel: .fixed(hz(60))))
            var events: [String] = []
            var clock: FrameClock { inner.clock }
            func currentTiming() -> DisplayTiming { inner.currentTiming() }
            func wait(until deadline: Nanoseconds) { inner.wait(until: deadline) }
            func doWork(_ duration: Nanoseconds) { inner.doWork(duration) }
            func flush() {
                events.append("flush")
                doWork(3 * ms)
            }
            func present() -> PresentOutcome {
                events.append("present")
                return inner.present()
            }
        }
        let backend = Ordering()
        let loop = FrameLoop(link: DisplayLink(preferred: FrameRateRange(fps: 60)), backend: backend)
        let game = ScriptedGame(frames: 3)
        game.work = { _ in
            backend.events.append("frame")
            return 1 * ms
        }
        loop.run(game)
        #expect(backend.events == Array(repeating: ["frame", "flush", "present"], count: 3).flatMap { $0 })
        #expect(game.records.allSatisfy { $0.workEnd - $0.callbackStart == 4 * ms })
    }
}
