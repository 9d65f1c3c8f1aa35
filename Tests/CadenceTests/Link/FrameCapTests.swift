import Testing
@_spi(Programs) @testable import Cadence

/// The cap each frame carries, which the presenter spaces new frames by.
@Suite("Display link: the cap on the frame")
struct FrameCapTests {
    private func frame(_ range: FrameRateRange, on timing: DisplayTiming) -> DisplayLinkFrame {
        DisplayLink(preferred: range).nextFrame(now: 0, lastFlip: nil, timing: timing)
    }

    @Test("A cap of 50 on 144 Hz runs every third vblank (48 Hz) and carries 50 as its cap")
    func capHonoured() {
        let f = frame(FrameRateRange(fps: 50).capped, on: .fixed(VsyncGrid(origin: 0, rate: hz(144))))
        #expect(f.effectiveRate.rate == FrameRate(numerator: 48))
        #expect(f.cap == FrameRate(numerator: 50))
    }

    @Test("No maximum, the display's rate, or variable refresh: no cap")
    func noCap() {
        #expect(frame(.displayRate, on: .fixed(VsyncGrid(origin: 0, rate: hz(60)))).cap == nil)
        #expect(frame(FrameRateRange(fps: 50), on: .fixed(VsyncGrid(origin: 0, rate: hz(144)))).cap == nil)
        #expect(frame(FrameRateRange(fps: 78).capped, on: .variable(minimum: hz(48), maximum: hz(144))).cap == nil)
    }

    @Test("A range none of the display's rates lies in runs the nearest rate, above the maximum: no cap to hold it to")
    func rangeNotHonoured() {
        // 60 Hz shows 60, 30, 20, ...: none within 45...50; 60 is nearer than 30 (10 Hz against 15).
        let f = frame(FrameRateRange(minimum: 45, maximum: 50, preferred: 50), on: .fixed(VsyncGrid(origin: 0, rate: hz(60))))
        #expect(f.effectiveRate.rate == FrameRate(numerator: 60))
        #expect(f.cap == nil)
    }
}

private extension FrameRateRange {
    /// The same preferred rate as a cap: at most it.
    var capped: FrameRateRange { FrameRateRange(minimum: 0, maximum: preferred, preferred: preferred) }
}
