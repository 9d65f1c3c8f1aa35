/// Which display clock the backend paces on, decided from what the platform
/// offers alone, so the choice is tested without a display server.
enum ClockChoice: Equatable, CaseIterable {
    /// The presenter's timer: vsync off, or variable refresh in effect (the
    /// compositor's feedback, where there is some, is still read for reports).
    case timer
    /// The compositor's `wp_presentation` feedback: native Wayland.
    case waylandPresentation
    /// The window's X Present clock: X11, and XWayland (its own clock).
    case xPresent
    /// A grid fitted to present returns: no platform clock to read.
    case presentReturns

    /// The clock for a window with vsync on or off, variable refresh in
    /// effect or not, and the platform's clocks that can be read (a watcher
    /// opened whose connection has not broken). A platform clock that does
    /// not tick is still chosen: it names itself absent and paces on the
    /// estimate from present returns until it ticks (``XPresentClock``).
    static func choose(vsync: Bool, variableRefresh: Bool, waylandFeedback: Bool, xPresent: Bool) -> ClockChoice {
        if !vsync || variableRefresh { return .timer }
        if waylandFeedback { return .waylandPresentation }
        if xPresent { return .xPresent }
        return .presentReturns
    }
}
