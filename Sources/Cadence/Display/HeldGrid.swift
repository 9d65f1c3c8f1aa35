/// The measured grid a platform clock hands out, held across refits only
/// while the clock's newest fit agrees with it in phase and in rate.
///
/// A fit to a clock moves its phase by microseconds with every new tick; a
/// grid that moved each time would make the link plan every frame on a new
/// grid. So the grid in use is kept while, at the newest tick (the fit's
/// origin) and ``horizon`` after it, its instants lie within ``tolerance`` of
/// the fit's, and replaced by the fit, anchored on the newest tick, once they
/// do not. Checking the phase alone would keep a grid of a slightly wrong
/// rate while it drifts up to the tolerance and back between refits; checking
/// the rate over the horizon bounds the drift wherever the grid is used
/// before the next tick checks it again.
package struct HeldGrid: Sendable {
    /// How far the grid in use may be from the newest fit: 0.01 ms. A glass
    /// time placed on the grid is labelled measured, a claim of lying within
    /// 0.05 ms of the kernel's vblank (which is exact: vkms's on an exact
    /// timer, a GPU's stamped in hardware). Holding a grid must not spend
    /// that whole budget: the fit's own rate error also grows with each
    /// vblank a target lies ahead of the newest tick (Weston reports its
    /// refresh rounded to a millihertz, 74 ns a vblank off vkms's 75 Hz
    /// mode, and a grid at that rate stands in until enough feedback is
    /// fitted). A fifth of it for the hold leaves the rest to the fit.
    package static let tolerance: Nanoseconds = 10_000
    /// How far past the newest tick the rates must agree: 2 s, the longest a
    /// grid is used before the next tick checks it (frames a dozen vblanks
    /// apart on a 6 Hz mode).
    package static let horizon: Nanoseconds = 2_000_000_000

    private var held: VsyncGrid?

    /// Nothing held yet.
    package init() {}

    /// The grid to use now that the fit gives `fresh`, its instant nearest
    /// `newest` the newest tick (its origin when nil): the held one while it
    /// agrees with it there, else `fresh` (then held). Nil while there is no
    /// fit; the held grid is still compared with the next one.
    package mutating func use(_ fresh: VsyncGrid?, newest: Nanoseconds? = nil) -> VsyncGrid? {
        guard let fresh else { return nil }
        if let held, Self.agrees(held, with: fresh, at: newest ?? fresh.origin) { return held }
        held = fresh
        return fresh
    }

    /// Forgets the held grid: the display or its mode changed.
    package mutating func reset() { held = nil }

    /// Whether `held`'s instants lie within ``tolerance`` of `fresh`'s at
    /// its instant nearest `newest` and ``horizon`` later (between the two
    /// the difference is linear).
    package static func agrees(_ held: VsyncGrid, with fresh: VsyncGrid, at newest: Nanoseconds) -> Bool {
        let j = fresh.nearestIndex(to: newest)
        let k = held.nearestIndex(to: fresh.time(at: j))
        let n = max(1, fresh.rate.frameIndex(atOrAfter: horizon))
        return abs(held.time(at: k) - fresh.time(at: j)) <= tolerance
            && abs(held.time(at: k + n) - fresh.time(at: j + n)) <= tolerance
    }
}
