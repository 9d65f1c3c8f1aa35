/// `--vrr`: whether variable refresh is detected, forced on, or kept off.
enum VRROverride: String, Equatable {
    /// Trust the detector (EDID, DRM, fullscreen).
    case auto
    /// Treat the display as variable refresh even if detection says otherwise.
    case on
    /// Never pace for variable refresh.
    case off

    /// Parses `auto`, `on` or `off`.
    static func parse(_ text: String, flag: String) throws -> VRROverride {
        guard let value = VRROverride(rawValue: text.lowercased()) else {
            throw ValueError(flag: flag, value: text, form: "auto, on or off")
        }
        return value
    }

    /// Parses `--vrr-range <min>-<max>` (1 ≤ min < max ≤ 1000).
    static func parseRange(_ text: String, flag: String) throws -> ClosedRange<Double> {
        let bad = ValueError(flag: flag, value: text, form: "<min>-<max> in Hz with 1 ≤ min < max ≤ 1000, e.g. 48-144")
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard bounds.count == 2, let minimum = Double(bounds[0]), let maximum = Double(bounds[1]),
              minimum.isFinite, maximum.isFinite, minimum >= 1, maximum <= ValueParsers.maximumFPS, minimum < maximum
        else { throw bad }
        return minimum...maximum
    }
}
