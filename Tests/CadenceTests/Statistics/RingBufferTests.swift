import Testing
@testable import Cadence

@Suite("Ring buffer")
struct RingBufferTests {
    @Test("Keeps the last values appended, oldest first, however many went in")
    func keepsTheLastValues() {
        var ring = RingBuffer<Int>(capacity: 3)
        #expect(ring.count == 0 && ring.elements.isEmpty)
        ring.append(1)
        ring.append(2)
        #expect(ring.elements == [1, 2])
        for value in 3...10 {
            ring.append(value)
            #expect(ring.elements == Array(max(1, value - 2)...value))
        }
        #expect(ring.count == 3)
    }
}
