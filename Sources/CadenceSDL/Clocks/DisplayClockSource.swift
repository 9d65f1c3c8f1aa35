/// Where the real-time backend's idea of the display's vblanks comes from.
@_spi(Programs) public enum DisplayClockSource: String, Sendable {
    /// The Wayland compositor's presentation-time feedback: the display's own clock.
    case waylandPresentation = "Wayland presentation-time"
    /// The X Present extension's MSC and UST for the window: the display's own clock.
    case xPresent = "X Present MSC/UST"
    /// XWayland's X Present clock: an estimate of the compositor's, since
    /// XWayland keeps a clock of its own (paced by the compositor's frame
    /// callbacks, or its own timer) and the compositor's timing does not reach X clients.
    case xwaylandPresent = "XWayland's Present clock (estimated: not the compositor's)"
    /// Estimated from the times presents return: no platform clock.
    case presentReturns = "estimated from present returns"
    /// No vsync or variable refresh: frames are paced by the timer, shown when presented.
    case timer = "timer"

    /// Whether the clock is the platform's own, not an estimate.
    public var isMeasured: Bool { self == .xPresent || self == .waylandPresentation }
}
