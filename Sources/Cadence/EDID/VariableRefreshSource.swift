/// Which EDID block advertised a variable refresh range.
///
/// The cases are listed in the order the selection rule trusts them; the raw
/// values are the names `display-probe` prints in its JSON.
@_spi(Programs) public enum VariableRefreshSource: String, CaseIterable, Comparable, Sendable {
    /// DisplayID 2.0 Adaptive-Sync block (tag 0x2B), first descriptor.
    case displayIDAdaptiveSync = "displayid-adaptive-sync"
    /// AMD FreeSync vendor-specific data block (OUI 00-00-1A) in CTA-861.
    case amdVSDB = "amd-vsdb"
    /// HDMI Forum VRRmin/VRRmax, from the HF-VSDB or the HF-SCDB (extended tag 0x79).
    case hdmiForumVRR = "hdmi-forum-vrr"
    /// DisplayID 2.0 Dynamic Video Timing Range Limits block (tag 0x25).
    case displayIDDynamicRange = "displayid-dynamic-range"
    /// The base block's Display Range Limits descriptor (0xFD); counts only for
    /// EDID 1.4 with continuous frequency and the range-limits-only class.
    case rangeLimits = "range-limits"

    /// The selection rule's order: earlier sources win.
    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A variable refresh range and the block that advertised it.
@_spi(Programs) public struct VariableRefreshRange: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The advertised range.
    public let range: RefreshRange
    /// Where it came from.
    public let source: VariableRefreshSource

    /// A range from `source`.
    public init(_ range: RefreshRange, source: VariableRefreshSource) {
        self.range = range
        self.source = source
    }

    /// `"48–144 Hz from amd-vsdb"`.
    public var description: String { "\(range) from \(source.rawValue)" }

    /// `candidates` in the selection rule's order: by source priority, and
    /// blocks of one source in the order they appear.
    static func inRuleOrder(_ candidates: [VariableRefreshRange]) -> [VariableRefreshRange] {
        candidates.enumerated()
            .sorted { ($0.element.source, $0.offset) < ($1.element.source, $1.offset) }
            .map(\.element)
    }
}
