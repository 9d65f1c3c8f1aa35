import Testing
@testable import CadenceSDLSDL
@Test func placeholder() { #expect(VirtualClock().now == 0) }
