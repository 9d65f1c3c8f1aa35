import Cadence
import CSDL2

/// An input or window event, translated from SDL's C union into Swift.
/// Positions are in window coordinates, or logical ones under
/// ``Renderer/setLogicalSize(width:height:)`` (SDL scales them).
public enum Event: Equatable, Sendable {
    /// The user closed the window or the process got SIGINT/SIGTERM (SDL maps them).
    case quit
    /// A key went down, with the modifiers held; `isRepeat` for auto-repeat.
    case keyDown(Key, modifiers: KeyModifiers, isRepeat: Bool)
    /// A key went up.
    case keyUp(Key)
    /// A mouse button went down at a position.
    case mouseDown(x: Int, y: Int, button: MouseButton)
    /// A mouse button went up at a position.
    case mouseUp(x: Int, y: Int, button: MouseButton)
    /// The mouse moved; `dragging` while the left button is held.
    case mouseMotion(x: Int, y: Int, dragging: Bool)
    /// The wheel turned: `dy` positive away from the user, `dx` positive to the
    /// right, in notches (fractions on precise touchpads).
    case mouseWheel(dx: Double, dy: Double)
    /// A game controller was plugged in (or was there at the start) and is open;
    /// its id is on its events (see ``GameControllers``).
    case controllerAdded(Int32, name: String)
    /// A game controller was unplugged.
    case controllerRemoved(Int32)
    /// A controller's button went down or up.
    case controllerButton(Int32, ControllerButton, down: Bool)
    /// A controller's stick or trigger moved: sticks −1…1, triggers 0…1.
    case controllerAxis(Int32, ControllerAxis, value: Double)
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
@_spi(Programs) public enum EventPump {
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
    @_spi(Programs) public static func pushKey(_ key: Key, modifiers: KeyModifiers = []) {
        var e = SDL_Event()
        e.key.type = SDL_KEYDOWN.rawValue
        e.key.state = UInt8(SDL_PRESSED)
        e.key.keysym.sym = key.keycode
        e.key.keysym.mod = modifiers.sdl
        SDL_PushEvent(&e)
    }

    /// Queues a synthetic mouse button press or release at window coordinates.
    @_spi(Programs) public static func pushMouseButton(down: Bool, x: Int, y: Int, button: MouseButton = .left) {
        var e = SDL_Event()
        e.button.type = down ? SDL_MOUSEBUTTONDOWN.rawValue : SDL_MOUSEBUTTONUP.rawValue
        e.button.button = button.sdl
        e.button.state = UInt8(down ? SDL_PRESSED : SDL_RELEASED)
        e.button.x = Int32(x); e.button.y = Int32(y)
        SDL_PushEvent(&e)
    }

    /// Queues a synthetic mouse motion, with the left button held when `dragging`.
    @_spi(Programs) public static func pushMouseMotion(x: Int, y: Int, dragging: Bool) {
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
            return .keyDown(Key(keycode: e.key.keysym.sym), modifiers: KeyModifiers(sdl: UInt32(e.key.keysym.mod)),
                            isRepeat: e.key.repeat != 0)
        case SDL_KEYUP:
            return .keyUp(Key(keycode: e.key.keysym.sym))
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            guard let button = MouseButton(sdl: e.button.button) else { return nil }
            let (x, y) = (Int(e.button.x), Int(e.button.y))
            return e.type == SDL_MOUSEBUTTONDOWN.rawValue ? .mouseDown(x: x, y: y, button: button)
                : .mouseUp(x: x, y: y, button: button)
        case SDL_MOUSEMOTION:
            let dragging = e.motion.state & CSDL2_Button(Int32(SDL_BUTTON_LEFT)) != 0
            return .mouseMotion(x: Int(e.motion.x), y: Int(e.motion.y), dragging: dragging)
        case SDL_MOUSEWHEEL:
            let sign: Double = e.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
            return .mouseWheel(dx: sign * Double(e.wheel.preciseX), dy: sign * Double(e.wheel.preciseY))
        case SDL_CONTROLLERDEVICEADDED:
            return GameControllers.opened(deviceIndex: e.cdevice.which).map { .controllerAdded($0.id, name: $0.name) }
        case SDL_CONTROLLERDEVICEREMOVED:
            GameControllers.closed(e.cdevice.which)
            return .controllerRemoved(e.cdevice.which)
        case SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLERBUTTONUP:
            guard let button = ControllerButton(rawValue: Int32(e.cbutton.button)) else { return nil }
            return .controllerButton(e.cbutton.which, button, down: e.type == SDL_CONTROLLERBUTTONDOWN.rawValue)
        case SDL_CONTROLLERAXISMOTION:
            guard let axis = ControllerAxis(rawValue: Int32(e.caxis.axis)) else { return nil }
            return .controllerAxis(e.caxis.which, axis, value: GameControllers.normalized(e.caxis.value))
        case SDL_DISPLAYEVENT:
            return .displayChanged
        case SDL_WINDOWEVENT:
            return windowEvent(e)
        default:
            return nil
        }
    }

    private static func windowEvent(_ e: SDL_Event) -> Event? {
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
    }
}
