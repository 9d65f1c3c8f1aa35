/// The measured grid a clock hands out, kept across refits while it still
/// agrees with the newest one.
///
/// A fit to a clock moves its phase by microseconds with every new sample; a
/// grid that moved each time would put a frame planned on the old one a whole
/// vblank later. So the grid in use is kept while its nearest instant lies
/// within ``phaseTolerance`` of the newest fit's origin, and replaced by the
/// newest fit once it does not.
package struct HeldGrid: Sendable {
    /// How far the grid in use may be from the newest fit before it is replaced.
    package static let phaseTolerance: Nanoseconds = 250_000

    private var held: VsyncGrid?

    /// Nothing held yet.
    package init() {}

    /// The grid to use now that the fit gives `fresh`: the held one while it
    /// agrees with it, else `fresh` (then held). Nil while there is no fit;
    /// the held grid is still compared with the next one.
    package mutating func use(_ fresh: VsyncGrid?) -> VsyncGrid? {
        guard let fresh else { return nil }
        if let held, abs(held.time(at: held.nearestIndex(to: fresh.origin)) - fresh.origin) <= Self.phaseTolerance {
            return held
        }
        held = fresh
        return fresh
    }

    /// Forgets the held grid: the display or its mode changed.
    package mutating func reset() { held = nil }
}
