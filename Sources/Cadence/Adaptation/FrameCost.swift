extension FrameRecord {
    /// The game's work for the frame: from the callback's start, when it read
    /// its input, to the end of its drawing.
    public var work: Nanoseconds { workEnd - callbackStart }

    /// What the frame cost, in ns: the one measure of it that everything
    /// learning from frames uses (the adaptive rate, the cost predictor behind
    /// ``FrameLatency/low``, the sample's monitor). It is the game's
    /// ``work`` plus the present's own cost: from the submit to the moment
    /// present returned (`presentTime` in both backends).
    ///
    /// Waiting is not cost: a slower rate or an earlier callback would not
    /// shorten it. With vsync on a fixed grid a present blocks until the
    /// vblank it is shown on, so only the part of the present after that
    /// vblank counts: a present that returns on time costs nothing more, one
    /// that misses its vblank costs the refreshes it missed. Without vsync or
    /// with variable refresh a present shows the frame at once, so all of it
    /// counts (under Xvfb, copying the frame takes about 10 ms).
    ///
    /// Cost rather than lateness, because in real time whether a frame was
    /// late depends mostly on the machine (a late wake-up, the compositor),
    /// while the cost is what a slower rate or an earlier start would change.
    ///
    /// - Parameter timing: the display the frame was presented on.
    @_spi(Programs) public func cost(on timing: DisplayTiming) -> Nanoseconds {
        var presentStart = presentSubmit
        if case .fixed(let grid) = timing {
            presentStart = max(presentSubmit, grid.time(at: grid.index(atOrAfter: presentSubmit)))
        }
        return max(0, work) + max(0, presentTime - presentStart)
    }
}
