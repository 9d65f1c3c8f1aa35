@_spi(Programs) import Cadence

/// What the detector found for one SDL display: the connector behind it, the
/// facts gathered and the policy's decision.
@_spi(Programs) public struct DisplayVRRReport: Equatable, Sendable {
    /// The display as SDL reports it.
    public let display: DisplayInfo
    /// The DRM connector showing it; nil when none could be matched.
    @_spi(Programs) public let connector: DRMConnectorInfo?
    /// The rule that matched ``connector``.
    @_spi(Programs) public let matchRule: ConnectorMatchRule?
    /// The kernel driver bound to the connector's card, e.g. `amdgpu`.
    public let kernelDriver: String?
    /// Everything the decision was made from.
    @_spi(Programs) public let facts: VRRFacts
    /// Fixed or variable, the range, whether VRR is in effect, sources and confidence.
    public let decision: VRRDecision
}
