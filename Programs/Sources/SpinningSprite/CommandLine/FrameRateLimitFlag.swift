import Cadence

extension FrameRateLimit {
    /// Parses `--fps` (and each step of `--fps-schedule`): `0` the display's
    /// rate, a cap from 1 to 1000 (snapped by the link to what the display
    /// shows evenly), `adaptive` or `uncapped`.
    static func parse(_ text: String, flag: String) throws -> FrameRateLimit {
        if text.lowercased() == "adaptive" { return .adaptive }
        if text.lowercased() == "uncapped" { return .uncapped }
        if let value = Double(text), value == 0 { return .displayRate }
        let form = "0 (the display's rate), 1 to 1000, adaptive, or uncapped"
        return .cap(try ValueParsers.rate(text, flag: flag, form: form))
    }
}
