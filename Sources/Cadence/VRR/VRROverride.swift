/// What the player asked for: let Cadence detect variable refresh, force it
/// on (for a display whose EDID or driver under-reports), or turn it off.
@_spi(Programs) public enum VRROverride: String, CaseIterable, Sendable {
    /// Trust the detector.
    case auto
    /// Treat the display as VRR-capable; VRR still needs a fullscreen window.
    case on
    /// Never pace as variable refresh.
    case off

    /// Parses a range written as `48-144` or `47.5-120` (a player's setting), within the
    /// bounds an EDID range may have: 1 ≤ min < max ≤ 1023. Nil for anything
    /// else, so the caller can say where the text came from.
    public static func range(parsing text: String) -> ClosedRange<FrameRate>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]),
              low >= 1, high <= 1023, high > low else { return nil }
        return FrameRate(hz: low)...FrameRate(hz: high)
    }
}
