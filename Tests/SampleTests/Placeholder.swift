import Testing
@Test func placeholderSample() { #expect(Bool(true)) }
