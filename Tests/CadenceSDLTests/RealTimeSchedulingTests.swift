import Testing
@_spi(Programs) @testable import CadenceSDL

@Suite("Real-time scheduling class")
struct RealTimeSchedulingTests {
    @Test("A request is granted or refused as a whole, and release returns the thread to the normal class")
    func requestAndRelease() {
        // Synchronous, with no suspension point: the class is the test thread's
        // only between these lines, and it is normal again when it returns.
        #expect(!RealTimeScheduling.isInEffect)
        let granted = RealTimeScheduling.request(priority: 1)
        let inEffect = RealTimeScheduling.isInEffect
        RealTimeScheduling.release()
        #expect(inEffect == granted, "the class in effect is the one the system answered")
        #expect(!RealTimeScheduling.isInEffect)
    }

    @Test("An impossible priority is refused without changing anything")
    func refused() {
        #expect(!RealTimeScheduling.request(priority: 1_000))
        #expect(!RealTimeScheduling.isInEffect)
    }
}
