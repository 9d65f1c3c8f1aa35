@_spi(Programs) import Cadence

/// Detects, per SDL display, whether variable refresh is available and in
/// effect: the Linux counterpart of macOS's refresh-interval properties.
///
/// Linux has no single API for this, so it combines sources: the connector's
/// EDID from sysfs, the driver's `vrr_capable` and the CRTC's `VRR_ENABLED`
/// through libdrm, the window's fullscreen state, `__GL_VRR_ALLOWED` and the
/// user's overrides, and says how sure it is. A call re-reads everything (a
/// few small files and ioctls), so call it again on a fullscreen toggle, a
/// display change or a mode change. It never throws or traps: whatever cannot
/// be read becomes an "unknown" with a reason.
@_spi(Programs) public struct VariableRefreshDetector: Sendable {
    /// Where sysfs is mounted; tests point it at a fake tree.
    public let sysfsRoot: String
    /// Where device nodes live (`dri/cardN` below it); tests point it at a fake tree.
    public let devRoot: String
    /// The environment to read `__GL_VRR_ALLOWED` from.
    public let environment: [String: String]

    /// SDL video drivers with no physical outputs behind their displays (`evdev`
    /// is SDL's dummy video driver with Linux evdev input).
    static let virtualVideoDrivers: Set<String> = ["dummy", "offscreen", "evdev"]

    /// A detector for the real system by default; `environment` nil means the process's.
    public init(sysfsRoot: String = "/sys", devRoot: String = "/dev", environment: [String: String]? = nil) {
        self.sysfsRoot = sysfsRoot
        self.devRoot = devRoot
        self.environment = environment ?? processEnvironment()
    }

    /// Every DRM connector sysfs shows, connected or not, for diagnostics.
    public func connectors() -> [DRMConnectorInfo] {
        SysfsDRM(root: sysfsRoot).connectors()
    }

    /// A report for each display.
    ///
    /// - Parameters:
    ///   - displays: SDL's displays (`Displays/all()`), or just the game window's.
    ///   - videoDriver: SDL's video driver (``SDLSession/videoDriver``); with
    ///     `dummy` or `offscreen` there is no physical display to detect.
    ///   - windowFullscreen: whether the game's window is fullscreen on these displays.
    ///   - windowProperty: on X11 the window's `_VARIABLE_REFRESH` (`X11VariableRefresh`).
    ///   - override: the user's decision (detect, on, off).
    ///   - overrideRange: a range the user gives, or nil.
    public func detect(displays: [DisplayInfo], videoDriver: String? = nil, windowFullscreen: Bool,
                       windowProperty: WindowVRRProperty = .noWindow, override: VRROverride = .auto,
                       overrideRange: ClosedRange<FrameRate>? = nil) -> [DisplayVRRReport] {
        let sysfs = SysfsDRM(root: sysfsRoot)
        let connectors = sysfs.connectors()
        var drmByCard: [String: Result<[DRMConnectorProperties], VRRUnknownReason>] = [:]
        return displays.map { display in
            var facts = VRRFacts(
                edid: .fixed, driver: .capable,
                modeRate: display.refreshHz > 0 ? FrameRate(hz: Double(display.refreshHz)) : nil,
                fullscreen: windowFullscreen,
                allowedByEnvironment: environment["__GL_VRR_ALLOWED"] != "0", windowProperty: windowProperty,
                override: override, overrideRange: overrideRange)
            var matched: (DRMConnectorInfo, ConnectorMatchRule)?
            var kernelDriver: String?
            if let videoDriver, Self.virtualVideoDrivers.contains(videoDriver) {
                let reason = VRRUnknownReason.noDisplay("SDL's \(videoDriver) video driver has no physical outputs")
                (facts.edid, facts.driver) = (.unavailable(reason), .unknown(reason))
            } else {
                switch ConnectorMatcher.match(display, among: connectors) {
                case .failure(let reason):
                    let why = sysfs.nvidiaModuleLoaded && connectors.isEmpty
                        ? VRRUnknownReason.proprietaryDriver(
                            "the nvidia module is loaded without DRM connectors (nvidia-drm.modeset=0?)")
                        : reason
                    (facts.edid, facts.driver) = (.unavailable(why), .unknown(why))
                case .success(let (connector, rule)):
                    matched = (connector, rule)
                    kernelDriver = sysfs.driver(ofCard: connector.card)
                    facts.edid = connector.edid.map(EDIDFact.init)
                        ?? .unavailable(.noEDID(connector.edidProblem ?? "\(connector.sysfsName) has none"))
                    if drmByCard[connector.card] == nil {
                        drmByCard[connector.card] = DRMProperties.connectors(devicePath: devRoot + "/dri/" + connector.card)
                    }
                    (facts.driver, facts.crtcVRREnabled) = Self.driverFacts(
                        for: connector, drm: drmByCard[connector.card]!, kernelDriver: kernelDriver)
                }
            }
            return DisplayVRRReport(display: display, connector: matched?.0, matchRule: matched?.1,
                                    kernelDriver: kernelDriver, facts: facts, decision: VRRPolicy.decide(facts))
        }
    }

    /// The driver's word for `connector`, from its card's DRM properties.
    static func driverFacts(for connector: DRMConnectorInfo,
                            drm: Result<[DRMConnectorProperties], VRRUnknownReason>,
                            kernelDriver: String?) -> (DriverFact, Bool?) {
        let isNVIDIA = kernelDriver == "nvidia"
        let properties: [DRMConnectorProperties]
        switch drm {
        case .failure(let reason):
            return (.unknown(isNVIDIA ? .proprietaryDriver("nvidia; and \(reason)") : reason), nil)
        case .success(let all):
            properties = all
        }
        // sysfs `connector_id` names the DRM object exactly; older kernels lack it, so fall back to the name.
        let match = properties.first { candidate in
            connector.connectorID.map { candidate.id == $0 } ?? (candidate.name == connector.name)
        }
        guard let match else {
            return (.unknown(.noDRMAccess("DRM lists no connector \(connector.name) on \(connector.card)")), nil)
        }
        switch match.vrrCapable {
        case true?: return (.capable, match.crtcVRREnabled)
        case false?: return (.notCapable, match.crtcVRREnabled)
        case nil where isNVIDIA:
            return (.unknown(.proprietaryDriver("nvidia does not report vrr_capable; G-SYNC state unknown")),
                    match.crtcVRREnabled)
        case nil:
            return (.noVRRSupport(driver: kernelDriver ?? "unknown"), match.crtcVRREnabled)
        }
    }
}
