@_spi(Programs) import CadenceSDL
import Foundation
import Testing

/// The watchdog ends a guarded call that does not return, and leaves alone
/// one that does. Its ending never returns; here it reports and parks its thread.
@Suite("PresentWatchdog")
struct PresentWatchdogTests {
    /// What the watchdog's ending was called with, once.
    final class Ended: @unchecked Sendable {
        let called = DispatchSemaphore(value: 0)
        var reason: PresentWatchdog.Reason?
    }

    private func watchdog(stop: @escaping @Sendable () -> Bool, into ended: Ended) -> PresentWatchdog {
        // Limits of 2 s and 4 s instead of one and two minutes, for the stall tests' time.
        PresentWatchdog(stopRequested: stop, stallLimit: 2_000_000_000, startUpLimit: 4_000_000_000) { reason in
            ended.reason = reason
            ended.called.signal()
            while true { pause() }
        }
    }

    /// Blocks one guarded call until the watchdog ends it (10 s at most):
    /// why, and how long after the call began; nil if it was never ended.
    private func endingOfBlockedCall(stop: @escaping @Sendable () -> Bool)
        -> (reason: PresentWatchdog.Reason?, after: TimeInterval)? {
        let ended = Ended()
        let watchdog = watchdog(stop: stop, into: ended)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let started = Date()
        // The blocked call runs on a thread of its own: once claimed, it never returns.
        Thread.detachNewThread { watchdog.guarding { release.wait() } }
        guard ended.called.wait(timeout: .now() + 10) == .success else { return nil }
        return (ended.reason, Date().timeIntervalSince(started))
    }

    @Test("A stop requested while a call blocks ends it after the grace, not before")
    func stopWhileBlocked() throws {
        let blocked = endingOfBlockedCall(stop: { true })
        let ending = try #require(blocked, "the blocked call was not ended within 10 s")
        #expect(ending.reason == .stopRequested)
        #expect(ending.after >= Double(PresentWatchdog.stopGrace) / 1e9, "ended \(ending.after) s in, before the grace")
    }

    @Test("Calls that return are never ended, even with a stop requested")
    func returningCalls() throws {
        let ended = Ended()
        let watchdog = watchdog(stop: { true }, into: ended)
        for _ in 0..<20 { _ = watchdog.guarding { usleep(20_000) } }
        #expect(ended.called.wait(timeout: .now() + 0.5) == .timedOut)
    }

    @Test("A start-up call (before the first present) blocked past the start-up limit ends the run, and not before it")
    func startUpLimit() throws {
        let blocked = endingOfBlockedCall(stop: { false })
        let ending = try #require(blocked, "the blocked call was not ended within 10 s")
        #expect(ending.reason == .startUpStalled)
        #expect(ending.after >= 4, "ended \(ending.after) s in, before the start-up limit")
    }

    @Test("A call blocked past the stall limit ends the run once a present has returned, not before (a first frame may take that long)")
    func stallLimitAfterTheFirstPresent() throws {
        let ended = Ended()
        let watchdog = watchdog(stop: { false }, into: ended)
        let limit = 2.0
        let first = DispatchSemaphore(value: 0), second = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            watchdog.guarding { first.wait() }
            watchdog.presentReturned()
            watchdog.guarding { second.wait() }
        }
        // The first call, before any present returned, outlasts the limit and is left alone.
        #expect(ended.called.wait(timeout: .now() + limit + 0.5) == .timedOut)
        let released = Date()
        first.signal()
        #expect(ended.called.wait(timeout: .now() + limit + 2) == .success)
        #expect(ended.reason == .presentStalled)
        #expect(Date().timeIntervalSince(released) >= limit, "ended before the limit")
        second.signal()
    }
}
