/// Holds a frame-rate cap on every path, whatever the display's clock estimate says.
///
/// The presenter aims each present at a vblank of the grid it believes in.
/// When that belief is wrong (a grid fitted to present returns on a
/// compositor whose presents do not block until a vblank), presents aimed at
/// "every second vblank" can come closer together than the cap allows. This
/// is the backstop: no new frame is presented sooner than the cap's interval,
/// less ``tolerance(for:)``, after the previous one presented under the same cap.
/// A present that keeps to the grid it aims at is never held by it.
///
/// Spacing is kept between the times presents are *scheduled*, not the times
/// they happened: a present the machine made late (a late wake-up) does not
/// push the next one late too, so lateness does not cascade, and the average
/// rate stays at or below the cap either way.
///
/// It is kept between presents aimed alike: made about the same time before
/// their vblanks (vsync leads within ``tolerance(for:)``: a grid refitted
/// each frame moves its lead by nanoseconds). A new aim starts it over. The
/// first frames on Wayland feedback or X Present go out at their targets, on
/// a stand-in grid, until the platform's vblanks arrive; then each goes out
/// just after the vblank before its own, most of a refresh earlier. Held to the old
/// aim, the presents slid a tolerance a frame toward their vblanks for
/// about a second, some too close to be shown on them (KWin 6.7 at a cap of
/// 30: one of every 50 frames a refresh late). The frame before showed on a
/// vblank at or after its target either way, and the new one on the
/// platform's own vblank it is planned for.
package struct CapSpacing: Sendable {
    private var last: (submitted: Nanoseconds, cap: FrameRate, lead: Nanoseconds?)?

    /// No present seen yet.
    package init() {}

    /// The slack allowed below the cap's interval: the jitter of a wake-up,
    /// 0.5 ms, but at most 1/32 of the interval, so at any cap the average
    /// rate of presents held at the limit stays within about 3% of it (and a
    /// present that keeps to a grid at or below the cap is never held).
    package static func tolerance(for cap: FrameRate) -> Nanoseconds {
        min(500_000, cap.period / 32)
    }

    /// The earliest a new frame presented `lead` before its vblank (nil:
    /// no lead given) may be presented under `cap` (nil: uncapped): the
    /// previous present plus the cap's interval less ``tolerance(for:)``,
    /// when that present was made under the same cap with the same lead;
    /// nil when there is no limit.
    package func earliestPresent(cap: FrameRate?, lead: Nanoseconds?) -> Nanoseconds? {
        guard let cap, let last, last.cap == cap, Self.aimedAlike(last.lead, lead, under: cap) else { return nil }
        return last.submitted + cap.period - Self.tolerance(for: cap)
    }

    /// Whether two presents were aimed alike: neither with a lead, or leads within ``tolerance(for:)``.
    private static func aimedAlike(_ a: Nanoseconds?, _ b: Nanoseconds?, under cap: FrameRate) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= tolerance(for: cap)
    }

    /// A new frame was scheduled for `time` under `cap` (nil: uncapped), `lead` before its vblank.
    package mutating func presented(at time: Nanoseconds, cap: FrameRate?, lead: Nanoseconds?) {
        last = cap.map { (time, $0, lead) }
    }

    /// Forgets the previous present: a pause, after which spacing starts over.
    package mutating func reset() { last = nil }
}
