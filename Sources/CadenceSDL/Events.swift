import Cadence
import CSDL2

/// The keys the sample and the library react to; everything else is `.other`.
public enum Key: Hashable, Sendable {
    case left, right, up, down, escape, space
    /// A letter key, lowercase (`"f"`, `"v"`, ...).
    case letter(Character)
    /// A digit key on the main row, 0–9.
    case digit(Int)
    /// Any other key, by SDL keycode.
    case other(Int32)

    init(keycode: SDL_Keycode) {
        switch Int(keycode) {
        case Int(SDLK_LEFT.rawValue): self = .left
        case Int(SDLK_RIGHT.rawValue): self = .right
        case Int(SDLK_UP.rawValue): self = .up
        case Int(SDLK_DOWN.rawValue): self = .down
        case Int(SDLK_ESCAPE.rawValue): self = .escape
        case Int(SDLK_SPACE.rawValue): self = .space
        case Int(SDLK_0.rawValue)...Int(SDLK_9.rawValue): self = .digit(Int(keycode) - Int(SDLK_0.rawValue))
        case Int(SDLK_a.rawValue)...Int(SDLK_z.rawValue):
            self = .letter(Character(Unicode.Scalar(UInt8(keycode))))
        default: self = .other(keycode)
        }
    }

    /// The SDL keycode, for pushing synthetic key events.
    var keycode: SDL_Keycode {
        switch self {
        case .left: SDL_Keycode(SDLK_LEFT.rawValue)
        case .right: SDL_Keycode(SDLK_RIGHT.rawValue)
        case .up: SDL_Keycode(SDLK_UP.rawValue)
        case .down: SDL_Keycode(SDLK_DOWN.rawValue)
        case .escape: SDL_Keycode(SDLK_ESCAPE.rawValue)
        case .space: SDL_Keycode(SDLK_SPACE.rawValue)
        case .digit(let d): SDL_Keycode(Int32(SDLK_0.rawValue) + Int32(d))
        case .letter(let c): SDL_Keycode(c.asciiValue ?? 0)
        case .other(let code): code
        }
    }
}

/// An input or window event, translated from SDL's C union into Swift.
public enum Event: Equatable, Sendable {
    /// The user closed the window or the process got SIGINT/SIGTERM (SDL maps them).
    case quit
    /// A key went down; `shift` is held; `isRepeat` for auto-repeat.
    case keyDown(Key, shift: Bool, isRepeat: Bool)
    /// A key went up.
    case keyUp(Key)
    /// A mouse button went down / up at window coordinates.
    case mouseDown(x: Int, y: Int)
    case mouseUp(x: Int, y: Int)
    /// The mouse moved; `dragging` while the left button is held.
    case mouseMotion(x: Int, y: Int, dragging: Bool)
    /// The window's size changed; lay the overlay out again.
    case resized(width: Int, height: Int)
    /// The window became invisible (minimized or hidden): pause the link.
    case hidden
    /// The window is visible again: resume the link.
    case shown
    /// The window moved, possibly to another display: re-detect the display.
    case moved
    /// A display was added, removed, or changed mode: re-detect the display.
    case displayChanged
}

/// Drains SDL's event queue on the main thread.
public enum EventPump {
    /// Every pending event, translated; events Cadence does not use are dropped.
    public static func poll() -> [Event] {
        var out: [Event] = []
        var e = SDL_Event()
        while SDL_PollEvent(&e) != 0 {
            if let event = translate(e) { out.append(event) }
        }
        return out
    }

    /// Blocks until an event arrives or `timeout` passes (at least a
    /// millisecond, SDL's unit); used while paused so the CPU rests instead of spinning.
    public static func wait(timeout: Nanoseconds) {
        SDL_WaitEventTimeout(nil, Int32(clamping: max(1, timeout / 1_000_000)))
    }

    /// Queues a synthetic key press, as if typed; for scripted input and tests.
    public static func pushKey(_ key: Key, shift: Bool = false) {
        var e = SDL_Event()
        e.key.type = SDL_KEYDOWN.rawValue
        e.key.state = UInt8(SDL_PRESSED)
        e.key.keysym.sym = key.keycode
        e.key.keysym.mod = UInt16(shift ? KMOD_LSHIFT.rawValue : 0)
        SDL_PushEvent(&e)
    }

    /// Queues a synthetic left-button press or release at window coordinates.
    public static func pushMouseButton(down: Bool, x: Int, y: Int) {
        var e = SDL_Event()
        e.button.type = down ? SDL_MOUSEBUTTONDOWN.rawValue : SDL_MOUSEBUTTONUP.rawValue
        e.button.button = UInt8(SDL_BUTTON_LEFT)
        e.button.state = UInt8(down ? SDL_PRESSED : SDL_RELEASED)
        e.button.x = Int32(x); e.button.y = Int32(y)
        SDL_PushEvent(&e)
    }

    /// Queues a synthetic mouse motion, with the left button held when `dragging`.
    public static func pushMouseMotion(x: Int, y: Int, dragging: Bool) {
        var e = SDL_Event()
        e.motion.type = SDL_MOUSEMOTION.rawValue
        e.motion.state = dragging ? CSDL2_Button(Int32(SDL_BUTTON_LEFT)) : 0
        e.motion.x = Int32(x); e.motion.y = Int32(y)
        SDL_PushEvent(&e)
    }

    private static func translate(_ e: SDL_Event) -> Event? {
        switch SDL_EventType(e.type) {
        case SDL_QUIT:
            return .quit
        case SDL_KEYDOWN:
            let shift = UInt32(e.key.keysym.mod) & KMOD_SHIFT.rawValue != 0
            return .keyDown(Key(keycode: e.key.keysym.sym), shift: shift, isRepeat: e.key.repeat != 0)
        case SDL_KEYUP:
            return .keyUp(Key(keycode: e.key.keysym.sym))
        case SDL_MOUSEBUTTONDOWN where e.button.button == UInt8(SDL_BUTTON_LEFT):
            return .mouseDown(x: Int(e.button.x), y: Int(e.button.y))
        case SDL_MOUSEBUTTONUP where e.button.button == UInt8(SDL_BUTTON_LEFT):
            return .mouseUp(x: Int(e.button.x), y: Int(e.button.y))
        case SDL_MOUSEMOTION:
            let dragging = e.motion.state & CSDL2_Button(Int32(SDL_BUTTON_LEFT)) != 0
            return .mouseMotion(x: Int(e.motion.x), y: Int(e.motion.y), dragging: dragging)
        case SDL_DISPLAYEVENT:
            return .displayChanged
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(e.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                return .resized(width: Int(e.window.data1), height: Int(e.window.data2))
            case SDL_WINDOWEVENT_MINIMIZED, SDL_WINDOWEVENT_HIDDEN:
                return .hidden
            case SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_SHOWN:
                return .shown
            case SDL_WINDOWEVENT_MOVED, SDL_WINDOWEVENT_DISPLAY_CHANGED:
                return .moved
            default:
                return nil
            }
        default:
            return nil
        }
    }
}
