@_spi(Programs) import Cadence

extension SDLBackend {
    /// How many refreshes after the first present on a stand-in grid the
    /// backend waits, at most, for the platform's own: a compositor reports a
    /// frame once it is shown, at the vblank after the commit or the one after
    /// that; X Present's clock needs a few of its ticks.
    static let ownGridWait: Int64 = 3

    /// Right after the first present on a clock that is still on its stand-in
    /// grid (Wayland's feedback or X Present before their first reports):
    /// reads the platform until its own vblanks arrive, for at most
    /// ``ownGridWait`` refreshes, so the next frame is planned on them.
    ///
    /// Planned on the stand-in, whose phase may be off by any part of a
    /// refresh, a frame goes out at its target, never early, and is shown up
    /// to a refresh late: on KWin 6.7 the first three frames of every run were
    /// (2% of a 5 s run at 30 FPS), each a hitch the player sees at the start.
    /// Once per clock: a platform that does not report (a hidden window)
    /// costs that wait once, not every frame.
    func awaitOwnGrid(after returned: Nanoseconds) {
        guard !ownGridAwaited, displayClock.isProvisional, case .fixed(let grid) = displayClock.timing else { return }
        ownGridAwaited = true
        displayClock.awaitOwnGrid(until: returned + Self.ownGridWait * grid.rate.period, on: clock)
    }
}
