/// Why the detector could not learn a fact about a display, said so a user
/// can act on it. Carried by ``VRRConfidence`` whenever it is below `.high`.
@_spi(Programs) public enum VRRUnknownReason: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no physical display to ask about: SDL reports none, or its
    /// video driver (dummy, offscreen) has no real outputs.
    case noDisplay(String)
    /// The display could not be matched to a DRM connector (none connected, or ambiguous).
    case noConnector(String)
    /// The DRM device could not be opened or queried (missing, permissions, not KMS).
    case noDRMAccess(String)
    /// A proprietary driver (NVIDIA) that does not expose `vrr_capable`;
    /// G-SYNC displays may not advertise any range in their EDID.
    case proprietaryDriver(String)
    /// The connector's EDID is missing or undecodable.
    case noEDID(String)
    /// The display is VRR-capable by the driver's or the user's word, but no
    /// source gives its range; the user's override range supplies one.
    case noRefreshRange(String)

    /// `"no DRM access: /dev/dri/card0: Permission denied"`.
    public var description: String {
        switch self {
        case .noDisplay(let detail): "no display: \(detail)"
        case .noConnector(let detail): "no connector: \(detail)"
        case .noDRMAccess(let detail): "no DRM access: \(detail)"
        case .proprietaryDriver(let detail): "proprietary driver: \(detail)"
        case .noEDID(let detail): "no EDID: \(detail)"
        case .noRefreshRange(let detail): "no refresh range: \(detail)"
        }
    }
}

/// How far to trust a ``VRRDecision``.
@_spi(Programs) public enum VRRConfidence: Equatable, Sendable, CustomStringConvertible {
    /// The kernel driver answered (`vrr_capable`), or the user decided by turning it on.
    case high
    /// Decided from the EDID alone, because the driver could not be asked.
    case medium([VRRUnknownReason])
    /// Not enough is known; fixed refresh is assumed.
    case unknown([VRRUnknownReason])

    /// The reasons confidence is not high; empty when it is.
    public var reasons: [VRRUnknownReason] {
        switch self {
        case .high: []
        case .medium(let reasons), .unknown(let reasons): reasons
        }
    }

    /// `"high"`, `"medium"` or `"unknown"`, as `display-probe --json` prints it.
    public var level: String {
        switch self {
        case .high: "high"
        case .medium: "medium"
        case .unknown: "unknown"
        }
    }

    /// `"medium (no DRM access: …)"`.
    public var description: String {
        reasons.isEmpty ? level : "\(level) (\(reasons.map(\.description).joined(separator: "; ")))"
    }
}
