/// How the frames of the link reach the glass, as the trace's `refresh_mode` names it.
@_spi(Programs) public enum RefreshMode: String, Sendable, Equatable, CaseIterable {
    /// A fixed vsync grid: frames can only be shown on vblanks, rates are `R/n`.
    case fixed
    /// Variable refresh in effect: any interval inside the panel's range.
    case variable
    /// No vsync (off, or headless): frames show when presented, at any rate.
    case none
}
