/// What the user asked for with `--vrr`: let Cadence detect variable refresh,
/// force it on (for a display whose EDID or driver under-reports), or turn it off.
public enum VRROverride: String, CaseIterable, Sendable {
    /// Trust the detector.
    case auto
    /// Treat the display as VRR-capable; VRR still needs a fullscreen window.
    case on
    /// Never pace as variable refresh.
    case off

    /// Parses a `--vrr-range` value such as `48-144` or `47.5-120`, within the
    /// bounds an EDID range may have: 1 ≤ min < max ≤ 1023. Nil for anything
    /// else, so the caller can name its flag in the usage error.
    public static func range(parsing text: String) -> ClosedRange<FrameRate>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]),
              low >= 1, high <= 1023, high > low else { return nil }
        return FrameRate(hz: low)...FrameRate(hz: high)
    }
}
