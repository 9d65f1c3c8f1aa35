import Testing
@_spi(Programs) @testable import Cadence

@Suite("Exact integer time")
struct FrameRateTests {
    @Test func fractionalRatesStayExactOverHours() {
        let rate = hz(59.94)
        // 59.94 Hz: 1 000 frames take exactly 1000 / 59.94 s = 16 683 350 016.68 ns.
        #expect(rate.offset(ofFrame: 1_000) == 16_683_350_017)
        // Ten hours of frames: k × 10¹² / 59 940 mHz, no overflow, no drift.
        let k: Int64 = 59_940 * 36_000 / 1_000
        #expect(rate.offset(ofFrame: k) == 36_000 * 1_000_000_000)
    }

    @Test func frameIndexInvertsOffset() {
        let rate = hz(143.856)
        for k: Int64 in [0, 1, 2, 1_000, 77_777, 10_000_000] {
            let t = rate.offset(ofFrame: k)
            #expect(rate.frameIndex(atOrAfter: t) == k)
            #expect(rate.frameIndex(atOrAfter: t + 1) == k + 1)
        }
    }

    @Test func gridIndicesAroundTheOrigin() {
        let grid = VsyncGrid(origin: 1_000, rate: hz(60))
        #expect(grid.index(atOrAfter: 1_000) == 0)
        #expect(grid.index(after: 1_000) == 1)
        #expect(grid.index(atOrBefore: 999) == -1)
        #expect(grid.time(at: -1) == 1_000 - 16_666_667)
        #expect(grid.nearestIndex(to: 1_000 + 9_000_000) == 1)
        #expect(grid.nearestIndex(to: 1_000 + 7_000_000) == 0)
    }

    @Test func descriptionTrimsZeros() {
        #expect(hz(59.94).description == "59.94 Hz")
        #expect(hz(144).description == "144 Hz")
    }
}
