@_spi(Programs) import Cadence

/// Which rule tied an SDL display to a DRM connector, so a user can judge the match.
@_spi(Programs) public enum ConnectorMatchRule: String, Equatable, Sendable {
    /// SDL's display name equals the connector's EDID product name (SDL2 on
    /// X11 names displays that way).
    case productName = "product-name"
    /// The display's mode size equals the connector's preferred mode, and no
    /// other candidate's does.
    case modeSize = "mode-size"
    /// Only one connector is connected and enabled, so it must be this display.
    case onlyConnectedConnector = "only-connected-connector"
}

/// Ties SDL displays to DRM connectors: by EDID product name, then by mode
/// size, then "the only connected connector". Ambiguity is never guessed away.
enum ConnectorMatcher {
    /// The connector showing `display`, with the rule that matched, or why none did.
    static func match(_ display: DisplayInfo, among connectors: [DRMConnectorInfo])
        -> Result<(DRMConnectorInfo, ConnectorMatchRule), VRRUnknownReason> {
        let active = connectors.filter(\.isActive)
        guard !active.isEmpty else {
            return .failure(.noConnector(connectors.isEmpty
                ? "no DRM connectors in sysfs (no KMS driver, or not Linux)"
                : "none of \(connectors.count) DRM connectors is connected and enabled"))
        }
        var candidates = active
        let named = active.filter { $0.edid?.productName == display.name }
        if named.count == 1 { return .success((named[0], .productName)) }
        if named.count > 1 { candidates = named }

        let sized = candidates.filter {
            $0.preferredModeSize.map { $0.width == display.modeWidth && $0.height == display.modeHeight } ?? false
        }
        if sized.count == 1 { return .success((sized[0], .modeSize)) }
        if active.count == 1 { return .success((active[0], .onlyConnectedConnector)) }

        let names = candidates.map(\.sysfsName).joined(separator: ", ")
        return .failure(.noConnector(
            "\"\(display.name)\" \(display.modeWidth)x\(display.modeHeight) matches none or several of \(names)"))
    }
}
