import CSDL2

/// The modifier keys held with a key or at a moment; either side counts.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Either Shift key.
    public static let shift = KeyModifiers(rawValue: 1)
    /// Either Control key.
    public static let control = KeyModifiers(rawValue: 2)
    /// Either Alt key (AltGr included).
    public static let alt = KeyModifiers(rawValue: 4)
    /// The Windows, Command or Super key.
    public static let gui = KeyModifiers(rawValue: 8)

    /// From SDL's `KMOD_…` bits.
    init(sdl mod: UInt32) {
        var set: KeyModifiers = []
        if mod & KMOD_SHIFT.rawValue != 0 { set.insert(.shift) }
        if mod & KMOD_CTRL.rawValue != 0 { set.insert(.control) }
        if mod & KMOD_ALT.rawValue != 0 { set.insert(.alt) }
        if mod & KMOD_GUI.rawValue != 0 { set.insert(.gui) }
        self = set
    }

    /// SDL's `KMOD_…` bits, the left-hand key for each.
    var sdl: UInt16 {
        var mod: UInt32 = 0
        if contains(.shift) { mod |= KMOD_LSHIFT.rawValue }
        if contains(.control) { mod |= KMOD_LCTRL.rawValue }
        if contains(.alt) { mod |= KMOD_LALT.rawValue }
        if contains(.gui) { mod |= KMOD_LGUI.rawValue }
        return UInt16(mod)
    }
}

/// A mouse button.
public enum MouseButton: Hashable, Sendable {
    /// The main, middle (the wheel, pressed) and secondary buttons.
    case left, middle, right
    /// The side buttons (back and forward on most mice).
    case x1, x2

    init?(sdl button: UInt8) {
        switch Int32(button) {
        case SDL_BUTTON_LEFT: self = .left
        case SDL_BUTTON_MIDDLE: self = .middle
        case SDL_BUTTON_RIGHT: self = .right
        case SDL_BUTTON_X1: self = .x1
        case SDL_BUTTON_X2: self = .x2
        default: return nil
        }
    }

    var sdl: UInt8 {
        switch self {
        case .left: UInt8(SDL_BUTTON_LEFT)
        case .middle: UInt8(SDL_BUTTON_MIDDLE)
        case .right: UInt8(SDL_BUTTON_RIGHT)
        case .x1: UInt8(SDL_BUTTON_X1)
        case .x2: UInt8(SDL_BUTTON_X2)
        }
    }
}

/// The keyboard and mouse as they are now, between events: for movement
/// that follows a key for as long as it is held. SDL updates this state as
/// the events are polled (``GameWindow/pollEvents()``), so it is as fresh as the last poll.
public enum Keyboard {
    /// Whether `key` is held down now.
    public static func isDown(_ key: Key) -> Bool {
        var count: Int32 = 0
        guard let state = SDL_GetKeyboardState(&count) else { return false }
        let scancode = Int32(SDL_GetScancodeFromKey(key.keycode).rawValue)
        return scancode > 0 && scancode < count && state[Int(scancode)] != 0
    }

    /// The modifier keys held now.
    public static var modifiers: KeyModifiers { KeyModifiers(sdl: SDL_GetModState().rawValue) }

    /// -1, 0 or +1 along one axis, from the two keys held for it (left/right, up/down).
    public static func axis(_ negative: Key, _ positive: Key) -> Double {
        (isDown(positive) ? 1 : 0) - (isDown(negative) ? 1 : 0)
    }
}

/// The mouse as it is now, between events.
public enum Mouse {
    /// Where the pointer is, in window coordinates (events carry logical ones
    /// under ``Renderer/setLogicalSize(width:height:)``; this does not).
    public static var position: (x: Int, y: Int) {
        var x: Int32 = 0, y: Int32 = 0
        SDL_GetMouseState(&x, &y)
        return (Int(x), Int(y))
    }

    /// Whether `button` is held down now.
    public static func isDown(_ button: MouseButton) -> Bool {
        SDL_GetMouseState(nil, nil) & CSDL2_Button(Int32(button.sdl)) != 0
    }
}
