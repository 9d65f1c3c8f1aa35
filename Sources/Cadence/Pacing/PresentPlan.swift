/// When to present one frame.
package struct PresentPlan: Equatable, Sendable {
    /// The display the plan was made for.
    public let timing: DisplayTiming
    /// The mode the plan was made in.
    public let mode: PresentMode
    /// When the frame will reach the glass if presented at ``submitAt``.
    public let onGlassAt: Nanoseconds
    /// Present no earlier than this.
    public let submitAt: Nanoseconds

    /// Plans the present of `frame` on the display as it is now (`timing`),
    /// the frame's work having ended at `workEnd` and the last frames having
    /// reached the glass at `flips` (empty before the first frame). When
    /// presents are timed, work that ended at most `tolerance` past the target
    /// (the link's ``DisplayLink/jitterTolerance``) still presents the frame
    /// for its target, at once: in real time a frame that overran by a few
    /// microseconds is better shown that much late, inside what counts as on
    /// time, than held a whole interval. With vsync a missed vblank is missed.
    ///
    /// The frame is for its target or, when the work ran past it, for the
    /// next slot of the link's cadence: a late frame is held to the cadence
    /// instead of being shown as soon as it is ready, so its lag is a whole
    /// number of intervals (motion on the glass keeps its speed) and the next
    /// callback starts on the cadence with a whole interval for its work. With
    /// variable refresh, when the driver repeats the previous frame at that
    /// slot (see `LowFramerateCompensation`), the frame is shown as the
    /// repeat's scan-out ends.
    /// When the display changed since the frame was planned (a new mode, VRR
    /// switched), its target is not on the new display's grid: the frame is
    /// for the new display's first chance at or after it, never earlier.
    ///
    /// - vsync: half a refresh before that vblank. A present in the refresh
    ///   before a vblank is shown on it, so this is the middle of the one
    ///   refresh-long window whose presents land there: earlier would show the
    ///   frame a vblank early, and the middle tolerates an error in the
    ///   estimated vblank phase either way, which in real time is what
    ///   present-return jitter leaves.
    ///   `vsyncLead`, where the backend knows the vblanks from the platform's
    ///   own clock rather than estimating them, replaces the half refresh
    ///   (less than a whole one, so the present is still in the refresh before):
    ///   a present whose copy ends after the vblank misses it, and there is no
    ///   estimate's phase error to leave room for.
    /// - timed: exactly at that time, never earlier: with no vsync or with
    ///   variable refresh, a frame is shown when it is presented.
    /// An unpaced frame (``DisplayLinkFrame/isPaced`` false: uncapped, no
    /// vsync) is presented as soon as its work ends.
    /// Behind a compositor the backend gives ``compositedVsyncLead(period:)``,
    /// on X Present's measured vblanks ``measuredVsyncLead(period:)``.
    public init(for frame: DisplayLinkFrame, on timing: DisplayTiming, workEndedAt workEnd: Nanoseconds,
                flips: FlipHistory, tolerance: Nanoseconds = 0, vsyncLead: Nanoseconds? = nil) {
        self.timing = timing
        mode = PresentMode(for: timing)
        let target = frame.slotNanoseconds
        let ready = workEnd <= target + (mode == .timed ? tolerance : 0) ? target : workEnd
        let slot: Nanoseconds
        switch timing {
        case .unsynced where !frame.isPaced:
            slot = max(workEnd, target)
        case _ where timing == frame.timing:
            slot = frame.cadence.firstSlot(atOrAfter: ready)
        case .fixed(let grid):
            slot = grid.time(at: grid.index(atOrAfter: ready))
        case .variable, .unsynced:
            slot = ready
        }
        if case .variable(let minimum, let maximum) = timing,
           let hold = LowFramerateCompensation(minimum: minimum, maximum: maximum).hold(after: flips) {
            onGlassAt = hold.shownAt(presentedAt: slot)
        } else {
            onGlassAt = slot
        }
        submitAt = onGlassAt - Self.lead(on: timing, vsyncLead: vsyncLead)
    }

    /// How long before its slot a frame on `timing` is presented: on a fixed
    /// grid `vsyncLead` or half a refresh (less than a whole one); none
    /// where a frame is shown when presented.
    public static func lead(on timing: DisplayTiming, vsyncLead: Nanoseconds?) -> Nanoseconds {
        guard case .fixed(let grid) = timing else { return 0 }
        return min(vsyncLead ?? grid.rate.period / 2, grid.rate.period - 1)
    }

    /// The vsync lead behind a compositor that reports when frames reached
    /// the glass (Wayland's `wp_presentation`): a frame for vblank N is
    /// presented right after vblank N-1, a sixteenth of a refresh after it.
    ///
    /// A compositor shows on vblank N only what was committed before it
    /// composited that frame, which it does up to a whole refresh before the
    /// vblank (Mutter's frame clock dispatches at the vblank less its maximum
    /// render time: 7/8 of a refresh until it has measured its rendering, at
    /// most a whole one). Half a refresh before the vblank is then after that
    /// moment and the frame is shown a vblank late, every time. Just after
    /// vblank N-1 is after the compositor composited N-1 (never a vblank
    /// early) and before it composites N; the sixteenth leaves room for the
    /// measured grid's own error.
    public static func compositedVsyncLead(period: Nanoseconds) -> Nanoseconds {
        period - period / 16
    }

    /// The vsync lead on a platform clock that measures the vblanks itself
    /// (X Present's UST/MSC), where a present is a copy the display server
    /// shows at the first vblank after it ends: just after the vblank before,
    /// so the copy has nearly the whole refresh, as a plain vsync loop's has
    /// when it presents the moment its work ends. What is kept after that
    /// vblank is for the measured grid's own error, which is a matter of
    /// microseconds whatever the rate: a quarter refresh, at most
    /// ``measuredVblankMargin``. A quarter at every rate took 42 ms from
    /// each copy on a 6 Hz mode under emulation, where copies take 130 ms:
    /// frames the work had finished in time went out too late for their vblank.
    public static func measuredVsyncLead(period: Nanoseconds) -> Nanoseconds {
        period - min(period / 4, measuredVblankMargin)
    }

    /// The most ``measuredVsyncLead(period:)`` keeps after the vblank before:
    /// ample for a measured grid's error (the kernel's vblanks are exact, a
    /// grid held on them agrees within 0.05 ms; one that drifted was seen
    /// 0.8 ms off), while a copy that a plain loop fits in a refresh at 60 Hz
    /// (up to 14 ms with 2 ms of work) still ends before its vblank.
    public static let measuredVblankMargin: Nanoseconds = 2_000_000
}
