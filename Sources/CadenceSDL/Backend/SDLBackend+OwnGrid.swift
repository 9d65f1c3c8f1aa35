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

    /// How many refreshes the window's first pictures take, at most: the
    /// compositor maps the window with the first, which takes longer than
    /// showing a frame, the more on a busy machine.
    static let firstPictureWait: Int64 = 12

    /// How many first pictures the window shows, at most, while the
    /// compositor shows each a vblank later than the one after its commit.
    static let firstPictures = 6

    /// Before the first frame: warms the renderer up (`Renderer.warmUp()`)
    /// and, while the clock is still on its stand-in grid, shows the window
    /// cleared to black and reads the platform until its own vblanks arrive,
    /// so that the game's first frame, too, is planned on them. Planned on the
    /// stand-in, the first frame went out while the compositor was still
    /// mapping the window and reached the glass 50 to 65 ms after its target
    /// on KWin 6.7, in every run.
    ///
    /// Where the compositor reports each picture (Wayland), the picture is
    /// shown again while the compositor shows it a vblank later than the one
    /// after its commit, as KWin 6.7 does with a window's first commits: so
    /// did the first one to four frames of every run at 30 FPS, each a
    /// refresh late. At most ``firstPictures`` pictures, within
    /// ``firstPictureWait`` refreshes in all: a path that shows every commit
    /// that late is the path's own (`PathLatency`).
    ///
    /// A picture is not a frame: the game draws none of it and no statistics
    /// count it; its report answers no frame's ticket.
    func prepareFirstFrame() {
        renderer.warmUp()
        guard displayClock.isProvisional else { return }
        // X Present's stand-in has no grid until presents are seen to block: the mode's rate, or 60 Hz.
        let rate = if case .fixed(let grid) = displayClock.timing { grid.rate } else { reportedRate }
        let period = (rate ?? FrameRate(numerator: 60)).period
        let deadline = clock.now + Self.firstPictureWait * period
        for _ in 0..<Self.firstPictures {
            let (ticket, submitted) = showPicture()
            displayClock.awaitOwnGrid(until: deadline, on: clock)
            guard let ticket else { return }
            let report = displayClock.read(until: deadline, on: clock) { displayClock.takeReports().first { $0.ticket == ticket } }
            // Another picture only while this one was shown later than the vblank after its commit.
            guard let glass = report?.glassTime, case .fixed(let grid) = displayClock.timing,
                  grid.nearestIndex(to: glass) > grid.index(atOrAfter: submitted) else { return }
        }
    }

    /// Presents the window cleared to black, asking for a report: its ticket
    /// (nil where the platform gives none) and when the present was made.
    private func showPicture() -> (ticket: Int?, submitted: Nanoseconds) {
        renderer.keepingDrawState { renderer.clear(Color(0, 0, 0)) }
        let ticket = displayClock.willPresent()
        let submitted = clock.now
        renderer.present(endingStartUp: false)
        _ = displayClock.presented(submittedAt: submitted, returnedAt: clock.now)
        return (ticket, submitted)
    }

}
