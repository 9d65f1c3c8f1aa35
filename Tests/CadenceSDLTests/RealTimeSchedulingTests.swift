import Testing
@_spi(Programs) import Cadence
@_spi(Programs) @testable import CadenceSDL

/// Serialized: the guard is the process's (RLIMIT_RTTIME, the SIGXCPU handler
/// and its demoted flag, which a request on another test's thread clears).
@Suite("Real-time scheduling class", .serialized)
struct RealTimeSchedulingTests {
    @Test("A request is granted or refused as a whole, and release returns the thread to the normal class")
    func requestAndRelease() {
        // Synchronous, with no suspension point: the class is the test thread's
        // only between these lines, and it is normal again when it returns.
        #expect(!RealTimeScheduling.isInEffect)
        let granted = RealTimeScheduling.request(priority: 1) != .normal
        let inEffect = RealTimeScheduling.isInEffect
        RealTimeScheduling.release()
        #expect(inEffect == granted, "the class in effect is the one the system answered")
        #expect(!RealTimeScheduling.isInEffect)
    }

    @Test("An impossible priority is refused without changing anything")
    func refused() {
        #expect(RealTimeScheduling.request(priority: 1_000) == .normal)
        #expect(!RealTimeScheduling.isInEffect)
    }

    @Test("A thread in the real-time class that stops sleeping is put back in the normal class, not frozen or killed")
    func stuckLoopIsDemoted() throws {
        guard RealTimeScheduling.request() != .normal else { return }   // the system allows no real-time class here
        defer { RealTimeScheduling.release() }
        // Spin without sleeping: RLIMIT_RTTIME's soft limit (100 ms of CPU) ends the class.
        let clock = MonotonicClock(), start = clock.now
        while RealTimeScheduling.isInEffect && clock.now - start < 5_000_000_000 {}
        #expect(!RealTimeScheduling.isInEffect)
        #expect(RealTimeScheduling.wasDemoted)
        #expect(clock.now - start >= RealTimeScheduling.runWithoutSleeping.soft, "demoted only once the limit passed")
    }
}
