import CSDL2
@_spi(Programs) import Cadence

/// Frames held to their moment by the compositor: where it offers
/// commit-timing with fifo (Weston 16, Mutter 50), each frame's commit
/// carries the moment it is for and the loop does not wait for it; the
/// compositor's feedback says when it really reached the glass. Opt-in
/// (``SDLBackend/holdsPresentsAtCompositor``): Mutter 50's headless monitor
/// never applied a held commit (SDL stalled in its present), and Weston 16's
/// showed held frames late on a loaded machine.
extension SDLBackend {
    /// Whether the clock's grid is a compositor's repaint timer (see
    /// `FrameBackend`): Weston's flagless feedback, which commit-timing paces too.
    public var gridIsRepaintTimer: Bool { displayClock.gridIsRepaintTimer }

    /// Whether SDL holds each present until the compositor showed the one
    /// before: its Wayland driver does with vsync on a GL renderer (it waits for
    /// the previous frame's callback); the software renderer's window surface does not.
    static func throttledByCompositor(_ renderer: Renderer) -> Bool {
        !renderer.isSoftware && SDL_GetCurrentVideoDriver().map { String(cString: $0) } == "wayland"
    }

    /// Whether the compositor holds presents on `timing`: it offers
    /// commit-timing with fifo, its own feedback is the clock (not a stand-in
    /// grid, whose phase may be anything), vsync is on and not variable, and
    /// SDL waits for the compositor's frame callbacks, which keeps the queue
    /// of held frames to one (the software renderer's surface does not).
    public func holdsPresents(on timing: DisplayTiming) -> Bool {
        guard holdsPresentsAtCompositor, let timedCommits, timedCommits.holdsToMoments, throttledByCompositor,
              displayClock.source == .waylandPresentation, !displayClock.isProvisional,
              renderer.vsync != .off else { return false }
        if case .variable = timing { return false }
        return true
    }

    /// Presents with the next commit held to `moment`. On a vblank grid the
    /// commit is stamped an eighth of a refresh before its vblank, so the
    /// repaint for that vblank takes it whatever the grid's error (no vblank
    /// lies between); it is taken as shown there, no sooner, until the
    /// compositor reports it.
    public func present(notBefore moment: Nanoseconds) -> PresentOutcome {
        var stamp = moment
        if case .fixed(let grid) = currentTiming() { stamp -= grid.rate.period / 8 }
        timedCommits?.next(notBefore: stamp)
        let outcome = present()
        return PresentOutcome(shownAt: max(outcome.shownAt, moment), tracedAt: outcome.tracedAt,
                              glassSource: outcome.glassSource, feedbackTicket: outcome.feedbackTicket)
    }

    /// How commits reach the glass on native Wayland, in words: what the
    /// compositor offers and whether frames are held by it; nil elsewhere.
    public var commitTiming: String? {
        guard let timedCommits else { return nil }
        if timedCommits.holdsToMoments {
            return holdsPresentsAtCompositor ? "held by the compositor to each frame's moment (commit-timing, fifo)"
                : "commit-timing and fifo offered, not used (holdsPresentsAtCompositor off): the loop paces them"
        }
        return timedCommits.offersFifo ? "fifo only (no commit-timing): the loop paces them"
            : "commit-timing only (no fifo): the loop paces them"
    }
}
