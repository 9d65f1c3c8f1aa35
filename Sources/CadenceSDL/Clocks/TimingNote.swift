/// Why the backend's timing is not vsync working as asked, for the overlay.
@_spi(Programs) public enum TimingNote: Equatable, Sendable, CustomStringConvertible {
    /// Vsync is off: the presenter's timer paces the frames.
    case vsyncOff
    /// Vsync is off because the loop is uncapped: nothing paces the frames.
    case uncapped
    /// The Wayland compositor repaints only when a frame arrives, so it has no vblanks to pace on.
    case compositorRepaintsOnDemand
    /// The display mode gives no refresh rate to pace on.
    case refreshRateUnknown
    /// Vsync is on but presents return at once (Xvfb, some compositors).
    case presentsDoNotWaitForVblank

    /// The overlay's words.
    public var description: String {
        switch self {
        case .vsyncOff: "paced by timer"
        case .uncapped: "uncapped: not paced"
        case .compositorRepaintsOnDemand: "the compositor repaints on demand: paced by timer"
        case .refreshRateUnknown: "refresh rate unknown: paced by timer"
        case .presentsDoNotWaitForVblank: "presents do not wait for vblank: paced by timer"
        }
    }
}
