import Testing
@testable import Cadence
@Test func placeholder() { #expect(VirtualClock().now == 0) }
