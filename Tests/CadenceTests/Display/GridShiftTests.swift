import Testing
@_spi(Programs) @testable import Cadence

/// A fixed display's measured grid that moves between two frames: a clock
/// refitted (X Present's, or a fit to present returns or to a compositor's
/// reports). A new display mode is another matter: its first vblank is free
/// (the invariant sweep's display changes).
@Suite("A vblank grid that moves between frames")
struct GridShiftTests {
    static let sixty = FrameRate(numerator: 60)

    @Test("Moved later (0.3 ms: X Present's refit tolerance passed; 4 ms): the next frame is a whole refresh after the last one's vblank on the new grid, not the shift after it",
          arguments: [300_000 as Nanoseconds, 4_000_000])
    func movedLater(shift: Nanoseconds) {
        let link = DisplayLink(preferred: .displayRate)
        let old = VsyncGrid(origin: 1_000_000_000, rate: Self.sixty, measured: true)
        // Frames on vblanks 1, 2, 3 of the old grid, each shown on its target.
        var last = link.nextFrame(now: old.time(at: 0) + 1, lastFlip: nil, timing: .fixed(old))
        for _ in 0..<2 {
            last = link.nextFrame(now: last.targetTimestampNanoseconds - 8_000_000,
                                  lastFlip: last.targetTimestampNanoseconds, timing: .fixed(old))
        }
        let shown = last.targetTimestampNanoseconds
        #expect(shown == old.time(at: 3))
        // The grid is now later: the last frame's vblank on it is `shift` after where it was taken to be shown.
        let moved = VsyncGrid(origin: old.origin + shift, rate: Self.sixty, measured: true)
        let next = link.nextFrame(now: shown - 8_000_000, lastFlip: shown, timing: .fixed(moved))
        // From first principles: vblank 3 of the moved grid holds the last frame; the next is vblank 4.
        #expect(next.targetTimestampNanoseconds == moved.time(at: 4),
                "target \(next.targetTimestampNanoseconds - shown) ns after the last frame's")
        #expect(next.deltaNanoseconds == moved.time(at: 4) - shown)
        #expect(next.skippedFrames == 0)
    }

    @Test("Moved 4 ms earlier: the next frame is on the new grid's next vblank, a refresh less 4 ms after the last")
    func movedEarlier() {
        let link = DisplayLink(preferred: .displayRate)
        let old = VsyncGrid(origin: 1_000_000_000, rate: Self.sixty, measured: true)
        let first = link.nextFrame(now: old.time(at: 0) + 1, lastFlip: nil, timing: .fixed(old))
        let shown = first.targetTimestampNanoseconds
        let moved = VsyncGrid(origin: old.origin - 4_000_000, rate: Self.sixty, measured: true)
        let next = link.nextFrame(now: shown - 8_000_000, lastFlip: shown, timing: .fixed(moved))
        #expect(next.targetTimestampNanoseconds == moved.time(at: 2))
        #expect(next.skippedFrames == 0)
    }

    @Test("A new mode at the same rate (a grid not measured): its first vblank, 4 ms after the last frame, is free")
    func newModeSameRate() {
        let link = DisplayLink(preferred: .displayRate)
        let old = VsyncGrid(origin: 1_000_000_000, rate: Self.sixty)
        let first = link.nextFrame(now: old.time(at: 0) + 1, lastFlip: nil, timing: .fixed(old))
        let shown = first.targetTimestampNanoseconds
        let mode = VsyncGrid(origin: shown + 4_000_000, rate: Self.sixty)
        let next = link.nextFrame(now: shown + 1, lastFlip: shown, timing: .fixed(mode))
        #expect(next.targetTimestampNanoseconds == shown + 4_000_000)
    }
}
