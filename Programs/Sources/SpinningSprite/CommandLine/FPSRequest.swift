/// What `--fps` (and each step of `--fps-schedule`) asks for.
enum FPSRequest: Equatable {
    /// `0`: the display's own rate.
    case displayRate
    /// `1`…`1000`: a cap in FPS, snapped by the link to what the display can show.
    case fixed(Double)
    /// `adaptive`: the highest rate the game sustains evenly.
    case adaptive
    /// `uncapped`: vsync off and no cap, as fast as the game goes.
    case uncapped

    /// Parses `0`, a rate from 1 to 1000, `adaptive` or `uncapped`.
    static func parse(_ text: String, flag: String) throws -> FPSRequest {
        if text.lowercased() == "adaptive" { return .adaptive }
        if text.lowercased() == "uncapped" { return .uncapped }
        if let value = Double(text), value == 0 { return .displayRate }
        let form = "0 (the display's rate), 1 to 1000, adaptive, or uncapped"
        return .fixed(try ValueParsers.number(text, flag: flag, in: 1...ValueParsers.maximumFPS, form: form))
    }
}
