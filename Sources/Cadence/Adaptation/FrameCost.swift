extension FrameRecord {
    /// What the frame cost the game and the present path, in ns: from the
    /// callback's start to the end of the game's work, plus the present's own
    /// cost (from the submit to the moment present returned, `presentTime` in
    /// both backends).
    ///
    /// Waiting is not cost. With vsync on a fixed grid a present blocks until
    /// the vblank it is shown on, so only the part of the present after that
    /// vblank counts: a present that returns on time costs nothing more, one
    /// that misses its vblank costs the refreshes it missed. Without vsync or
    /// with variable refresh a present shows the frame at once, so all of it
    /// counts (under Xvfb, copying the frame takes about 10 ms).
    ///
    /// In real time this is what the adaptive rate must follow: whether a
    /// frame was late there depends mostly on the machine (a late wake-up,
    /// the compositor), while the cost is what a slower rate would change.
    public func cost(on timing: DisplayTiming) -> Nanoseconds {
        var presentStart = presentSubmit
        if case .fixed(let grid) = timing {
            presentStart = max(presentSubmit, grid.time(at: grid.index(atOrAfter: presentSubmit)))
        }
        return (workEnd - callbackStart) + max(0, presentTime - presentStart)
    }
}
