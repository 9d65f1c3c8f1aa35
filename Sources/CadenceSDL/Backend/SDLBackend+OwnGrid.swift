@_spi(Programs) import Cadence
import CSDL2

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

    /// How many refreshes the window's first picture waits, at most, for
    /// the platform's own vblanks: the compositor maps the window with it,
    /// which takes longer than showing a frame, the more on a busy machine.
    static let firstPictureWait: Int64 = 12

    /// Before the first frame: warms the renderer up (`Renderer.warmUp()`)
    /// and, while the clock is still on its stand-in grid, shows the window
    /// cleared to black and reads the platform until its own vblanks arrive
    /// (at most ``firstPictureWait`` refreshes), so that the game's first
    /// frame, too, is planned on them. Planned on the stand-in,
    /// the first frame went out while the compositor was still mapping the
    /// window and reached the glass 50 to 65 ms after its target on KWin 6.7,
    /// in every run. This picture is not a frame: the game draws none of it
    /// and no statistics count it; its report, asked for so that the clock
    /// gets one, answers no frame's ticket.
    func prepareFirstFrame() {
        renderer.warmUp()
        guard displayClock.isProvisional else { return }
        // X Present's stand-in has no grid until presents are seen to block: the mode's rate, or 60 Hz.
        let rate = if case .fixed(let grid) = displayClock.timing { grid.rate } else { reportedRate }
        let period = (rate ?? FrameRate(numerator: 60)).period
        // The game's draw colour, which it may have set once for all its frames, is given back.
        var (r, g, b, a): (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        SDL_GetRenderDrawColor(renderer.handle, &r, &g, &b, &a)
        renderer.clear(Color(0, 0, 0))
        SDL_SetRenderDrawColor(renderer.handle, r, g, b, a)
        _ = displayClock.willPresent()
        let submitted = clock.now
        renderer.present(endingStartUp: false)
        let returned = clock.now
        _ = displayClock.presented(submittedAt: submitted, returnedAt: returned)
        displayClock.awaitOwnGrid(until: returned + Self.firstPictureWait * period, on: clock)
    }
}
