/// Where a fact in a ``VRRDecision`` came from, so a user can check it.
@_spi(Programs) public enum VRRFactSource: Equatable, Sendable, CustomStringConvertible {
    /// A DRM property, e.g. the connector's `vrr_capable`.
    case drmProperty(String)
    /// The driver lacks the `vrr_capable` property (names the driver).
    case driverWithoutVRR(String)
    /// An EDID block; nil for "the EDID, which advertises no valid range".
    case edid(VariableRefreshSource?)
    /// The current display mode, as SDL reports it.
    case displayMode
    /// What the user decided (`VRRFacts/override`, `VRRFacts/overrideRange`): names the fact.
    case userOverride(String)
    /// Nothing answered, so fixed refresh is assumed.
    case assumption

    /// `"EDID amd-vsdb"`, `"DRM vrr_capable"`, ...
    public var description: String {
        switch self {
        case .drmProperty(let name): "DRM \(name)"
        case .driverWithoutVRR(let driver): "driver \(driver) (no vrr_capable property)"
        case .edid(let source?): "EDID \(source.rawValue)"
        case .edid(nil): "EDID (no variable refresh range)"
        case .displayMode: "display mode"
        case .userOverride(let fact): "the user's override (\(fact))"
        case .assumption: "assumption"
        }
    }
}

/// Why variable refresh is not requested for a window on a display.
@_spi(Programs) public enum VRRInactiveReason: Equatable, Sendable, CustomStringConvertible {
    /// The display has a fixed refresh rate (or is not known to vary).
    case fixedRefresh
    /// The window is not fullscreen; compositors keep VRR for fullscreen windows.
    case windowed
    /// The user turned it off (``VRROverride/off``).
    case disabledByOverride
    /// `__GL_VRR_ALLOWED=0` in the environment.
    case disabledByEnvironment
    /// The current mode's rate is at or below the range's minimum, leaving nothing to vary.
    case modeBelowRange(FrameRate)
    /// On X11, the window's `_VARIABLE_REFRESH` is unset or 0.
    case windowProperty(WindowVRRProperty)

    /// `"window not fullscreen"`, ...
    public var description: String {
        switch self {
        case .fixedRefresh: "fixed refresh"
        case .windowed: "window not fullscreen"
        case .disabledByOverride: "turned off by the user"
        case .disabledByEnvironment: "__GL_VRR_ALLOWED=0"
        case .modeBelowRange(let rate): "current mode \(rate) is not above the VRR minimum"
        case .windowProperty(let property): "\(property)"
        }
    }
}
