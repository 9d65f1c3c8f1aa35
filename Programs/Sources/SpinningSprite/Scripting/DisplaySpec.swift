/// A simulated display, as `--simulate-display` and `--refresh-schedule` write it.
enum DisplaySpec: Equatable {
    /// `fixed:<hz>`: a fixed refresh rate (fractional allowed, e.g. 59.94).
    case fixed(Double)
    /// `vrr:<min>-<max>`: a variable-refresh panel's range in Hz.
    case variable(minimum: Double, maximum: Double)
    /// `unknown`: a display whose rate SDL reports as 0 Hz (nothing to snap to).
    case unknown

    static let form = "fixed:<hz>, vrr:<min>-<max> (rates from 1 to 1000 Hz) or unknown, e.g. fixed:59.94 or vrr:48-144"

    /// Parses one spec; zero, negative, reversed or absurd rates are errors.
    static func parse(_ text: String, flag: String) throws -> DisplaySpec {
        let bad = ValueError(flag: flag, value: text, form: form)
        if text.lowercased() == "unknown" { return .unknown }
        let parts = text.lowercased().split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw bad }
        func hz(_ s: String) throws -> Double {
            guard let v = Double(s), v.isFinite, v >= 1, v <= ValueParsers.maximumFPS else { throw bad }
            return v
        }
        switch parts[0] {
        case "fixed":
            return .fixed(try hz(parts[1]))
        case "vrr":
            let bounds = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard bounds.count == 2 else { throw bad }
            let (minimum, maximum) = (try hz(bounds[0]), try hz(bounds[1]))
            guard minimum < maximum else { throw bad }
            return .variable(minimum: minimum, maximum: maximum)
        default:
            throw bad
        }
    }
}
