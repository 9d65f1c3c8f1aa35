/// Where the real-time backend's idea of the display's vblanks comes from.
public enum DisplayClockSource: String, Sendable {
    /// The X Present extension's MSC and UST for the window: the display's own clock.
    case xPresent = "X Present MSC/UST"
    /// Estimated from the times presents return, on XWayland: its Present
    /// clock is its own and the compositor's timing does not reach X clients.
    case xwaylandPresentReturns = "estimated from present returns (XWayland)"
    /// Estimated from the times presents return: no platform clock.
    case presentReturns = "estimated from present returns"
    /// No vsync or variable refresh: frames are paced by the timer, shown when presented.
    case timer = "timer"

    /// Whether the clock is the platform's own, not an estimate.
    public var isMeasured: Bool { self == .xPresent }
}
