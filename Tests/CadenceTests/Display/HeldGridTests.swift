import Testing
@_spi(Programs) @testable import Cadence

@Suite("The grid a clock hands out across refits")
struct HeldGridTests {
    static let hundred = FrameRate(numerator: 100)
    /// The kernel's vblanks on vkms at 60 Hz: 1344 × 806 pixels at 65 MHz, 16.6656 ms exactly.
    static let vkms = FrameRate(period: 16_665_600)

    @Test("Phase: kept while the newest fit's origin lies within 0.01 ms of one of its instants; replaced, and the newcomer kept, once it does not; no fit, no grid")
    func keepsThePhase() {
        var held = HeldGrid()
        let first = VsyncGrid(origin: 1_000_000_000, rate: Self.hundred, measured: true)
        #expect(held.use(first) == first)
        // 30 ms and 0.008 ms on: 0.008 ms from the held grid's instant 3, at the same rate.
        #expect(held.use(VsyncGrid(origin: 1_030_008_000, rate: Self.hundred, measured: true)) == first)
        #expect(held.use(nil) == nil)
        // 0.012 ms from instant 3: past the tolerance.
        let moved = VsyncGrid(origin: 1_030_012_000, rate: Self.hundred, measured: true)
        #expect(held.use(moved) == moved)
        // Now the moved grid is held: 0.005 ms from its instant 1 keeps it.
        #expect(held.use(VsyncGrid(origin: 1_040_017_000, rate: Self.hundred, measured: true)) == moved)
        held.reset()
        let fresh = VsyncGrid(origin: 1_040_017_000, rate: Self.hundred, measured: true)
        #expect(held.use(fresh) == fresh)
    }

    @Test("Rate: a fit on a held instant whose rate parts from the held one by 0.008 ms over 2 s (100.0004 Hz) keeps it; by 0.012 ms (100.0006 Hz) replaces it")
    func keepsTheRate() {
        let first = VsyncGrid(origin: 1_000_000_000, rate: Self.hundred, measured: true)
        // The first instant at or after 2 s is the 201st (200 periods fall short of 2 s at either rate);
        // 201 periods at 100.0004 Hz: 1e9 × 201 / 100.0004 = 2 009 991 960.0 ns, 8.04 µs short of 2.01 s.
        var held = HeldGrid()
        _ = held.use(first)
        #expect(held.use(VsyncGrid(origin: 1_030_000_000, rate: FrameRate(hz: 100.0004), measured: true)) == first)
        // At 100.0006 Hz: 2 009 987 940.1 ns, 12.06 µs short.
        let faster = VsyncGrid(origin: 1_030_000_000, rate: FrameRate(hz: 100.0006), measured: true)
        #expect(held.use(faster) == faster)
    }

    @Test("A grid 1.2 µs a vblank too long, checked at ticks a dozen vblanks apart on vkms's exact 16.6656 ms: replaced at the first check, so no grid handed out is ever 0.05 ms off the kernel's vblanks where it is used")
    func cannotDrift() {
        let truth = VsyncGrid(origin: 5_000_000_000, rate: Self.vkms)
        var held = HeldGrid()
        _ = held.use(VsyncGrid(origin: truth.origin, rate: FrameRate(period: 16_666_800), measured: true))
        for tick: Int64 in stride(from: 12, through: 1_200, by: 12) {
            // A fit on exact ticks: the truth, instant 0 on the newest tick.
            let grid = held.use(VsyncGrid(origin: truth.time(at: tick), rate: Self.vkms, measured: true))!
            for ahead: Int64 in [0, 1, 12] {
                let t = truth.time(at: tick + ahead)
                #expect(abs(grid.time(at: grid.nearestIndex(to: t)) - t) <= 50_000,
                        "tick \(tick) + \(ahead): \(grid.time(at: grid.nearestIndex(to: t)) - t) ns off")
            }
        }
    }

    @Test("A fit whose origin lies seconds back (a fit to the last 240 presentation times) is compared at the newest tick: agreeing at its origin is not enough")
    func comparesAtTheNewestTick() {
        let held = VsyncGrid(origin: 1_000_000_000, rate: Self.hundred, measured: true)
        // Same instant at 1 s, but 100.01 Hz: 4 s later (400 periods) 0.16 ms early.
        let fresh = VsyncGrid(origin: 1_000_000_000, rate: FrameRate(hz: 100.01), measured: true)
        #expect(HeldGrid.agrees(held, with: fresh, at: 1_000_000_000) == false)
        #expect(HeldGrid.agrees(held, with: held, at: 5_000_000_000))
        var grids = HeldGrid()
        _ = grids.use(held)
        #expect(grids.use(fresh, newest: 5_000_000_000) == fresh)
    }
}
