@_spi(Programs) import Cadence

extension SimulatedDisplay.Panel {
    /// How `--simulate-display` and `--refresh-schedule` write a panel.
    static let form = "fixed:<hz>, vrr:<min>-<max> (rates from 1 to 1000 Hz) or unknown, e.g. fixed:59.94 or vrr:48-144"

    /// Parses `fixed:<hz>` (fractional allowed, e.g. 59.94), `vrr:<min>-<max>`
    /// or `unknown` (a display whose rate SDL reports as 0 Hz); zero,
    /// negative, reversed or absurd rates are errors.
    static func parse(_ text: String, flag: String) throws -> SimulatedDisplay.Panel {
        let bad = ValueError(flag: flag, value: text, form: form)
        if text.lowercased() == "unknown" { return .unknown }
        let parts = text.lowercased().split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw bad }
        func rate(_ s: String) throws -> FrameRate {
            do { return FrameRate(hz: try ValueParsers.rate(s, flag: flag)) } catch { throw bad }
        }
        switch parts[0] {
        case "fixed":
            return .fixed(try rate(parts[1]))
        case "vrr":
            let bounds = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard bounds.count == 2 else { throw bad }
            let (minimum, maximum) = (try rate(bounds[0]), try rate(bounds[1]))
            guard minimum < maximum else { throw bad }
            return .variable(minimum: minimum, maximum: maximum)
        default:
            throw bad
        }
    }
}
