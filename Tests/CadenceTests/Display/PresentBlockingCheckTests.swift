import Testing
@testable import Cadence

@Suite("Whether presents wait for the display")
struct PresentBlockingCheckTests {
    static let period: Nanoseconds = 16_666_667

    @Test("Presents that return at once: not paced by vsync, unless the compositor throttles them")
    func returnsAtOnce() {
        var plain = PresentBlockingCheck(throttledByCompositor: false)
        var throttled = PresentBlockingCheck(throttledByCompositor: true)
        for _ in 0..<PresentBlockingCheck.sampleCount {
            // 0.3 ms: a copy, no wait (an eighth of a refresh is 2.08 ms).
            plain.note(blocked: 300_000, period: Self.period)
            throttled.note(blocked: 300_000, period: Self.period)
        }
        #expect(!plain.presentsBlock)
        #expect(throttled.presentsBlock)
    }

    @Test("Presents that wait half a refresh pace the loop; undecided until the last sample")
    func presentsThatWait() {
        var check = PresentBlockingCheck(throttledByCompositor: false)
        for n in 0..<PresentBlockingCheck.sampleCount {
            // Half wait 8.3 ms, half return at once: the median is a wait... of 8.3 ms
            // for the upper half, 0.3 ms for the lower: sorted, index 8 of 16 is a wait.
            check.note(blocked: n.isMultiple(of: 2) ? 300_000 : Self.period / 2, period: Self.period)
            #expect(check.presentsBlock, "decided early, after \(n + 1)")
        }
        #expect(check.presentsBlock)
    }
}
