import Testing
@testable import Cadence

@Suite("The grid a clock hands out across refits")
struct HeldGridTests {
    static let hundred = FrameRate(numerator: 100)

    @Test("Kept while the newest fit's origin lies within 0.25 ms of one of its instants; replaced, and the newcomer kept, once it does not; no fit, no grid")
    func keepsTheGridInUse() {
        var held = HeldGrid()
        let first = VsyncGrid(origin: 1_000_000_000, rate: Self.hundred, measured: true)
        #expect(held.use(first) == first)
        // 30 ms and 0.2 ms on: 0.2 ms from the held grid's instant 3.
        let near = VsyncGrid(origin: 1_030_200_000, rate: FrameRate(hz: 100.01), measured: true)
        #expect(held.use(near) == first)
        #expect(held.use(nil) == nil)
        // 0.3 ms from instant 3: past the tolerance.
        let moved = VsyncGrid(origin: 1_030_300_000, rate: Self.hundred, measured: true)
        #expect(held.use(moved) == moved)
        // Now the moved grid is held: 0.1 ms from its instant 1 keeps it.
        #expect(held.use(VsyncGrid(origin: 1_040_400_000, rate: Self.hundred, measured: true)) == moved)
        held.reset()
        #expect(held.use(near) == near)
    }
}
