import Testing
@_spi(Programs) @testable import Cadence

@Suite("Frame-rate snapping")
struct FrameRateSnapperTests {
    private func snap(_ fps: Double, on timing: DisplayTiming) -> Double {
        FrameRateSnapper.effectiveRate(for: FrameRateRange(fps: fps), on: timing).rate.hz
    }
    private func fixed(_ r: Double) -> DisplayTiming { .fixed(VsyncGrid(origin: 0, rate: hz(r))) }

    @Test("fixed 60 Hz: 40 → 30, 26 → 30, 35 → 30, 50 → 60", arguments: [(40.0, 30.0), (26, 30), (35, 30), (50, 60)])
    func sixtyHertz(requested: Double, expected: Double) {
        #expect(snap(requested, on: fixed(60)) == expected)
    }

    @Test func oneTwentyHertzKeepsForty() {
        #expect(snap(40, on: fixed(120)) == 40)
    }

    @Test func tiesGoToTheHigherRate() {
        // 45 is 15 from both 60 and 30.
        #expect(snap(45, on: fixed(60)) == 60)
    }

    @Test func zeroMeansTheDisplayRate() {
        #expect(snap(0, on: fixed(59.94)) == 59.94)
        #expect(snap(0, on: .variable(minimum: hz(48), maximum: hz(144))) == 144)
        #expect(snap(0, on: .unsynced(reported: hz(75))) == 75)
        #expect(snap(0, on: .unsynced(reported: nil)) == 60)
    }

    @Test func rangeBoundsWinOverDistance() {
        // 40 on 60 Hz would snap to 30, but the range forbids rates under 35.
        let range = FrameRateRange(minimum: 35, maximum: 0, preferred: 40)
        #expect(FrameRateSnapper.effectiveRate(for: range, on: fixed(60)).rate.hz == 60)
    }

    @Test("VRR windowed paces as fixed at its mode rate: 78 → 72")
    func vrrWindowed() {
        let display = SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: false)
        #expect(snap(78, on: display.timing(at: 0)) == 72)
    }

    @Test("VRR fullscreen: any rate in range, capped at max, LFC below min")
    func vrrActive() {
        let display = SimulatedDisplay(panel: .variable(minimum: hz(48), maximum: hz(144)), fullscreen: true)
        let timing = display.timing(at: 0)
        #expect(snap(78, on: timing) == 78)
        #expect(snap(200, on: timing) == 144)
        let low = FrameRateSnapper.effectiveRate(for: FrameRateRange(fps: 30), on: timing)
        #expect(low.rate.hz == 30)
        #expect(low.presentsPerFrame == 2)
        #expect(FrameRateSnapper.effectiveRate(for: FrameRateRange(fps: 20), on: timing).presentsPerFrame == 3)
        #expect(FrameRateSnapper.effectiveRate(for: FrameRateRange(fps: 50), on: timing).presentsPerFrame == 1)
    }

    @Test func noVsyncRunsTheExactRequest() {
        #expect(snap(78, on: .unsynced(reported: hz(60))) == 78)
        #expect(snap(59.5, on: .unsynced(reported: nil)) == 59.5)
    }
}

@Suite("Snapping on a measured grid")
struct MeasuredGridSnappingTests {
    /// A compositor SDL reports as 60 Hz that repaints every 16 ms (62.5 Hz).
    let compositor = DisplayTiming.fixed(VsyncGrid(origin: 0, rate: FrameRate(numerator: 125, denominator: 2),
                                                   nominal: FrameRate(numerator: 60)))

    @Test("A cap is chosen on the reported rate and held on the measured one: 30 is every 3rd repaint (62.5/2 > 30), 20 every 4th")
    func capsOnTheNominalRate() {
        let thirty = FrameRateSnapper.effectiveRate(for: FrameRateRange(maximum: 30, preferred: 30), on: compositor)
        #expect(thirty.vsyncStride == 3 && thirty.rate == FrameRate(numerator: 125, denominator: 6))
        let twenty = FrameRateSnapper.effectiveRate(for: FrameRateRange(maximum: 20, preferred: 20), on: compositor)
        #expect(twenty.vsyncStride == 4 && twenty.rate == FrameRate(numerator: 125, denominator: 8))
        // 32 allows 31.25: every 2nd repaint.
        let thirtyTwo = FrameRateSnapper.effectiveRate(for: FrameRateRange(maximum: 32, preferred: 32), on: compositor)
        #expect(thirtyTwo.vsyncStride == 2)
        // 59 is below the reported 60: every 2nd repaint, as on a real 60 Hz panel.
        let fiftyNine = FrameRateSnapper.effectiveRate(for: FrameRateRange(maximum: 59, preferred: 59), on: compositor)
        #expect(fiftyNine.vsyncStride == 2)
        // The display's own rate is every repaint.
        #expect(FrameRateSnapper.effectiveRate(for: .displayRate, on: compositor).vsyncStride == 1)
    }

    @Test("A panel measured a few parts in ten thousand fast still runs a cap of 30 at every 2nd vblank; 0.5% fast does not")
    func measurementNoiseIsNotACapBreach() {
        func stride(measured: Double) -> Int64 {
            let grid = VsyncGrid(origin: 0, rate: FrameRate(hz: measured), nominal: FrameRate(numerator: 60))
            return FrameRateSnapper.effectiveRate(for: FrameRateRange(maximum: 30, preferred: 30), on: .fixed(grid)).vsyncStride
        }
        #expect(stride(measured: 60.06) == 2)   // 30.03 <= 30 × 1.002
        #expect(stride(measured: 60.3) == 3)    // 30.15 > 30.06
        #expect(stride(measured: 59.94) == 2)
    }
}
