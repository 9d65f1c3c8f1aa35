import Cadence
import CadenceSDL

/// Parses `--input-script "<sec>:<action>,..."`: synthetic input for demos and tests.
///
/// Actions: `key=<name>` with name `left`, `right`, `shift+left`, `shift+right`,
/// `esc`, a digit or a letter; `drag=<fps>` drags the slider's knob to that rate.
enum InputScript {
    /// Actions run in the order written; several may share a time, but times never go back.
    static func parse(_ text: String) throws -> [(at: Nanoseconds, action: GameConfig.InputAction)] {
        let form = "<sec>:key=<name>|drag=<fps>[,...] (e.g. \"0.5:key=right,1:drag=90\")"
        let actions = try text.split(separator: ",").map { item in
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let seconds = Double(parts[0]), seconds.isFinite, seconds >= 0,
                  let action = action(parts[1]) else {
                throw ValueError(flag: "--input-script", value: String(item), form: form)
            }
            return (at: TimeUnit.nanoseconds(seconds: seconds), action: action)
        }
        try ValueParsers.requireIncreasing(actions.map(\.at), strictly: false, flag: "--input-script",
                                           text: text, form: form)
        return actions
    }

    private static func action(_ text: String) -> GameConfig.InputAction? {
        if text.hasPrefix("drag="), let fps = Double(text.dropFirst(5)), fps.isFinite, fps >= 1, fps <= 1000 {
            return .dragSlider(toFPS: fps)
        }
        guard text.hasPrefix("key=") else { return nil }
        var name = String(text.dropFirst(4)).lowercased()
        let shift = name.hasPrefix("shift+")
        if shift { name.removeFirst(6) }
        switch name {
        case "left": return .key(.left, shift: shift)
        case "right": return .key(.right, shift: shift)
        case "esc", "escape": return .key(.escape, shift: shift)
        default:
            guard name.count == 1, let c = name.first else { return nil }
            if let d = c.wholeNumberValue { return .key(.digit(d), shift: shift) }
            if c.isLetter, c.isASCII { return .key(.letter(c), shift: shift) }
            return nil
        }
    }
}
