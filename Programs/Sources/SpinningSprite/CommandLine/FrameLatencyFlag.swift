import Cadence

extension FrameLatency {
    /// Parses `--latency low|smooth`.
    static func parse(_ text: String, flag: String) throws -> FrameLatency {
        guard let value = FrameLatency(rawValue: text.lowercased()) else {
            throw ValueError(flag: flag, value: text, form: "low or smooth")
        }
        return value
    }
}
