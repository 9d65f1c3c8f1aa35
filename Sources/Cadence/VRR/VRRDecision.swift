/// The VRR policy's answer for one display: how it refreshes, over which
/// range, whether variable refresh is capable and requested for the game,
/// where each fact came from and how sure that is. Whether it is in effect
/// is measured from glass times, by ``VariableRefreshTracker``, not decided.
///
/// It plays the part of macOS's `NSScreen.minimumRefreshInterval` /
/// `maximumRefreshInterval` (unequal means adaptive sync) together with
/// "the window is fullscreen", which Linux offers no single API for.
@_spi(Programs) public struct VRRDecision: Equatable, Sendable {
    /// How a display refreshes.
    public enum Refresh: String, Sendable {
        /// On a fixed vblank grid.
        case fixed
        /// At any interval inside the range (adaptive sync, FreeSync, G-SYNC Compatible, HDMI VRR).
        case variable
    }

    /// Whether the display can refresh variably (as decided; see ``isRequested``
    /// for whether the game's window asks for it now).
    public let refresh: Refresh
    /// The lowest refresh rate: the VRR minimum, or the mode's rate when fixed.
    /// Nil when fixed and SDL does not know the mode's rate.
    public let minimumRate: FrameRate?
    /// The highest refresh rate: the VRR maximum (capped at the current mode's
    /// rate), or the mode's rate when fixed. Nil when unknown.
    public let maximumRate: FrameRate?
    /// Why VRR is not requested; empty exactly when it is.
    public let inactiveReasons: [VRRInactiveReason]
    /// What decided ``refresh``.
    public let refreshSource: VRRFactSource
    /// Where ``minimumRate`` and ``maximumRate`` came from; nil when unknown.
    public let rateSource: VRRFactSource?
    /// The CRTC's `VRR_ENABLED` when read: whether the compositor has VRR on right now.
    public let crtcVRREnabled: Bool?
    /// How far to trust this, with reasons when not fully.
    public let confidence: VRRConfidence
    /// Remarks a user may want, e.g. an EDID range the driver contradicts.
    public let notes: [String]

    /// Capable: the driver's `vrr_capable` (or the EDID's range where the
    /// driver cannot be asked, or the user's override) says variable refresh.
    public var isCapable: Bool { refresh == .variable }

    /// Requested: a capable display, a fullscreen window (compositors enable
    /// VRR only for one), on X11 the window's `_VARIABLE_REFRESH` set, and
    /// nothing disabling it. Still not in effect until glass times show it.
    public var isRequested: Bool { inactiveReasons.isEmpty }

    /// The shortest time between refreshes (macOS `minimumRefreshInterval`).
    public var minimumRefreshInterval: Nanoseconds? { maximumRate?.period }
    /// The longest time between refreshes (macOS `maximumRefreshInterval`);
    /// equal to the minimum on a fixed display.
    public var maximumRefreshInterval: Nanoseconds? { minimumRate?.period }

    /// The range to pace in once VRR is seen in effect, nil when it is not
    /// requested: what ``VariableRefreshTracker/rangeInEffect`` gives.
    public var requestedRange: (minimum: FrameRate, maximum: FrameRate)? {
        guard isRequested, let minimumRate, let maximumRate else { return nil }
        return (minimumRate, maximumRate)
    }

    /// `"variable 48–144 Hz, requested"`, `"variable 48–144 Hz, not requested:
    /// window not fullscreen"`, `"fixed 60 Hz"` or `"fixed, rate unknown"`.
    public var summary: String {
        switch (refresh, minimumRate, maximumRate) {
        case (.fixed, _, let rate?):
            return "fixed \(rate)"
        case (.fixed, _, nil):
            return "fixed, rate unknown"
        case (.variable, let low?, let high?):
            let state = isRequested ? "requested"
                : "not requested: " + inactiveReasons.map(\.description).joined(separator: ", ")
            return "variable \(low.description.dropLast(3))–\(high), \(state)"
        case (.variable, _, _):
            return "variable, range unknown"
        }
    }
}
