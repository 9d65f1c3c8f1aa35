import CSDL2

/// A key on the keyboard, by what it types in the current layout (SDL's
/// keycode). The keys games name most are cases; every other key SDL knows
/// arrives as ``other(_:)``, with its name in ``name``.
///
/// Letters are cases of their own (`.q`), so that a letter in the wrong case
/// cannot silently never match; ``letter(_:)`` takes either case.
public enum Key: Hashable, Sendable {
    /// The arrow keys.
    case left, right, up, down
    /// The named keys games use most (`enter` is Return).
    case escape, space, enter, tab, backspace, delete, insert, home, end, pageUp, pageDown
    /// The letter keys, by the letter they type in the current layout.
    case a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z
    /// A digit key on the main row, 0–9.
    case digit(Int)
    /// A function key, F1–F24.
    case function(Int)
    /// The modifier keys themselves, each side on its own.
    case leftShift, rightShift, leftControl, rightControl, leftAlt, rightAlt
    /// The Windows, Command or Super key.
    case leftGUI, rightGUI
    /// Any other key, by SDL keycode (`SDLK_…`); ``name`` says which.
    case other(Int32)

    /// The letter key for `character`, upper or lower case (`.letter("Q") == .q`).
    /// A character that is not an ASCII letter gives the key SDL maps it to.
    public static func letter(_ character: Character) -> Key {
        Key(keycode: SDL_Keycode(character.lowercased().unicodeScalars.first.map { Int32($0.value) } ?? 0))
    }

    /// The letter this key types, lowercase; nil for a key that is not a letter.
    public var letter: Character? {
        guard let index = Self.letters.firstIndex(of: self) else { return nil }
        return Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(index)))
    }

    /// SDL's name for the key, as a keyboard labels it: `"Q"`, `"Return"`, `"Left Shift"`, `"Keypad 5"`.
    public var name: String { String(cString: SDL_GetKeyName(keycode)) }

    /// The key SDL calls `name` (see ``name``); nil when SDL knows no such key.
    public init?(named name: String) {
        let code = SDL_GetKeyFromName(name)
        guard code != SDL_Keycode(SDLK_UNKNOWN.rawValue) else { return nil }
        self.init(keycode: code)
    }

    private static let letters: [Key] = [.a, .b, .c, .d, .e, .f, .g, .h, .i, .j, .k, .l, .m,
                                         .n, .o, .p, .q, .r, .s, .t, .u, .v, .w, .x, .y, .z]

    /// The named keys and their SDL keycodes; letters, digits and F-keys are ranges.
    private static let named: [(Key, SDL_KeyCode)] = [
        (.left, SDLK_LEFT), (.right, SDLK_RIGHT), (.up, SDLK_UP), (.down, SDLK_DOWN),
        (.escape, SDLK_ESCAPE), (.space, SDLK_SPACE), (.enter, SDLK_RETURN), (.tab, SDLK_TAB),
        (.backspace, SDLK_BACKSPACE), (.delete, SDLK_DELETE), (.insert, SDLK_INSERT), (.home, SDLK_HOME),
        (.end, SDLK_END), (.pageUp, SDLK_PAGEUP), (.pageDown, SDLK_PAGEDOWN),
        (.leftShift, SDLK_LSHIFT), (.rightShift, SDLK_RSHIFT), (.leftControl, SDLK_LCTRL),
        (.rightControl, SDLK_RCTRL), (.leftAlt, SDLK_LALT), (.rightAlt, SDLK_RALT),
        (.leftGUI, SDLK_LGUI), (.rightGUI, SDLK_RGUI),
    ]

    /// SDL's F1–F12 and F13–F24 are two runs of keycodes.
    private static let functionKeys: [SDL_KeyCode] = [
        SDLK_F1, SDLK_F2, SDLK_F3, SDLK_F4, SDLK_F5, SDLK_F6, SDLK_F7, SDLK_F8, SDLK_F9, SDLK_F10, SDLK_F11,
        SDLK_F12, SDLK_F13, SDLK_F14, SDLK_F15, SDLK_F16, SDLK_F17, SDLK_F18, SDLK_F19, SDLK_F20, SDLK_F21,
        SDLK_F22, SDLK_F23, SDLK_F24,
    ]

    /// The key SDL reports as `keycode`.
    init(keycode: SDL_Keycode) {
        let code = Int(keycode)
        if let found = Self.named.first(where: { Int($0.1.rawValue) == code }) {
            self = found.0
        } else if let f = Self.functionKeys.firstIndex(where: { Int($0.rawValue) == code }) {
            self = .function(f + 1)
        } else if (Int(SDLK_0.rawValue)...Int(SDLK_9.rawValue)).contains(code) {
            self = .digit(code - Int(SDLK_0.rawValue))
        } else if (Int(SDLK_a.rawValue)...Int(SDLK_z.rawValue)).contains(code) {
            self = Self.letters[code - Int(SDLK_a.rawValue)]
        } else {
            self = .other(keycode)
        }
    }

    /// The SDL keycode, for the keyboard state and synthetic key events.
    var keycode: SDL_Keycode {
        if let found = Self.named.first(where: { $0.0 == self }) { return SDL_Keycode(found.1.rawValue) }
        switch self {
        case .digit(let d): return SDL_Keycode(Int32(SDLK_0.rawValue) + Int32(d))
        case .function(let n) where (1...24).contains(n): return SDL_Keycode(Self.functionKeys[n - 1].rawValue)
        case .function: return SDL_Keycode(SDLK_UNKNOWN.rawValue)
        case .other(let code): return code
        default:
            let index = Self.letters.firstIndex(of: self) ?? 0
            return SDL_Keycode(Int32(SDLK_a.rawValue) + Int32(index))
        }
    }
}
