/// Everything the VRR policy decides from, for one display. The SDL layer's
/// detector gathers these from the EDID, DRM, SDL and the environment; tests
/// and the simulator can state them directly.
@_spi(Programs) public struct VRRFacts: Equatable, Sendable {
    /// What the display's EDID says about variable refresh.
    public var edid: EDIDFact
    /// What the kernel driver says: the connector's `vrr_capable` property.
    public var driver: DriverFact
    /// The CRTC's `VRR_ENABLED` property when readable: whether the compositor
    /// has VRR switched on right now. Reported, never decisive: the X server
    /// or compositor enables it only once a fullscreen window flips.
    public var crtcVRREnabled: Bool?
    /// The current display mode's refresh rate (from SDL); nil when unknown.
    /// VRR cannot go above it, so it caps the variable range.
    public var modeRate: FrameRate?
    /// Whether the game's window is fullscreen (SDL window flags): compositors
    /// enable VRR only for a fullscreen window.
    public var fullscreen: Bool
    /// False when `__GL_VRR_ALLOWED=0` is set: the GL driver will not use VRR.
    public var allowedByEnvironment: Bool
    /// On X11, the window's `_VARIABLE_REFRESH` property.
    public var windowProperty: WindowVRRProperty
    /// What the user decided: detect, or variable refresh on or off.
    public var override: VRROverride
    /// A range the user gives: replaces the EDID's range when the EDID is wrong.
    public var overrideRange: ClosedRange<FrameRate>?

    /// Facts for one display; the optional ones default to "not given".
    public init(edid: EDIDFact, driver: DriverFact, crtcVRREnabled: Bool? = nil, modeRate: FrameRate?,
                fullscreen: Bool, allowedByEnvironment: Bool = true, windowProperty: WindowVRRProperty = .notX11,
                override: VRROverride = .auto, overrideRange: ClosedRange<FrameRate>? = nil) {
        self.edid = edid
        self.driver = driver
        self.crtcVRREnabled = crtcVRREnabled
        self.modeRate = modeRate
        self.fullscreen = fullscreen
        self.allowedByEnvironment = allowedByEnvironment
        self.windowProperty = windowProperty
        self.override = override
        self.overrideRange = overrideRange
    }
}

/// The EDID's word on variable refresh.
@_spi(Programs) public enum EDIDFact: Equatable, Sendable {
    /// The EDID advertises a valid range (`EDID/variableRefresh`).
    case variable(VariableRefreshRange)
    /// The EDID was read and advertises no valid range.
    case fixed
    /// No EDID could be read, and why.
    case unavailable(VRRUnknownReason)

    /// The facts an `EDID` gives.
    public init(_ edid: EDID) {
        self = edid.variableRefresh.map(EDIDFact.variable) ?? .fixed
    }
}

/// The kernel driver's word on variable refresh, from the connector's
/// `vrr_capable` property.
@_spi(Programs) public enum DriverFact: Equatable, Sendable {
    /// `vrr_capable` = 1: the driver can drive this display with VRR.
    case capable
    /// `vrr_capable` = 0: the driver will not (adaptive sync off in the
    /// monitor's menu, an unsupported link, ...), whatever the EDID says.
    case notCapable
    /// The driver has no `vrr_capable` property at all: it does not support
    /// VRR (open drivers attach the property only when they do). Names the driver.
    case noVRRSupport(driver: String)
    /// The driver could not be asked, and why.
    case unknown(VRRUnknownReason)
}

/// An X11 window's `_VARIABLE_REFRESH` property. Mesa sets it to 1 on a GL
/// window (its `adaptive_sync` option, on by default); the X server's driver
/// (amdgpu, modesetting) switches the CRTC to variable refresh for a
/// fullscreen window that flips only while it is 1.
@_spi(Programs) public enum WindowVRRProperty: Equatable, Sendable, CustomStringConvertible {
    /// Not an X11 window: on Wayland the compositor's own policy decides,
    /// which no protocol tells a client.
    case notX11
    /// The window has no such property: nothing asked for variable refresh.
    case unset
    /// The property's value: 1 asks for variable refresh, 0 refuses it.
    case value(UInt32)
    /// A value the X drivers ignore (not one 32-bit item), and what it is:
    /// as good as none.
    case ignored(String)
    /// The property could not be read, and why.
    case unreadable(String)
    /// No window to read it from (`display-probe`): taken as a GL window's
    /// default, which does not refuse.
    case noWindow

    /// Whether the property stops the X server from enabling variable refresh.
    var refuses: Bool {
        switch self {
        case .unset, .ignored: true
        case .value(let value): value == 0
        case .notX11, .unreadable, .noWindow: false
        }
    }

    /// `"_VARIABLE_REFRESH=1"`, `"no _VARIABLE_REFRESH on the window"`, ...
    public var description: String {
        switch self {
        case .notX11: "not X11: the compositor's policy decides (not visible to a client)"
        case .unset: "no _VARIABLE_REFRESH on the window"
        case .value(let value): "_VARIABLE_REFRESH=\(value)"
        case .ignored(let what): "_VARIABLE_REFRESH ignored by the X driver (\(what))"
        case .unreadable(let why): "_VARIABLE_REFRESH unreadable: \(why)"
        case .noWindow: "no window (Mesa sets _VARIABLE_REFRESH=1 on a GL window by default)"
        }
    }
}
