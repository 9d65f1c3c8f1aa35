import CSDL2

/// A button of a game controller, by its place on an Xbox-style layout
/// (SDL's game controller mapping gives every supported pad this layout).
public enum ControllerButton: Int32, CaseIterable, Hashable, Sendable {
    /// The bottom, right, left and top face buttons (A, B, X, Y on an Xbox pad).
    case a = 0, b, x, y
    /// The middle buttons (Back or View, the logo, Start or Menu), the sticks
    /// pressed in, and the shoulder buttons (the triggers are axes).
    case back, guide, start, leftStick, rightStick, leftShoulder, rightShoulder
    /// The directional pad.
    case dpadUp, dpadDown, dpadLeft, dpadRight
    /// Share, microphone or capture: the pad's extra button, where it has one.
    case misc
}

/// An axis of a game controller.
public enum ControllerAxis: Int32, CaseIterable, Hashable, Sendable {
    /// The sticks (−1…1, right and down positive) and the triggers (0…1).
    case leftX = 0, leftY, rightX, rightY, leftTrigger, rightTrigger
}

/// The game controllers plugged in, opened as SDL reports them so that
/// their buttons and axes arrive as events; a controller is known by the id
/// its events carry (SDL's instance id, unique while the program runs).
public enum GameControllers {
    /// Open controllers by instance id; the main thread's, as SDL's are.
    nonisolated(unsafe) private static var open: [Int32: OpaquePointer] = [:]

    /// Starts SDL's game controller subsystem, once: controllers already
    /// plugged in then arrive as ``Event/controllerAdded(_:name:)`` too.
    /// ``GameWindow`` calls it; returns false where SDL cannot (no joystick support).
    @discardableResult
    public static func start() -> Bool {
        SDL_WasInit(SDL_INIT_GAMECONTROLLER) != 0 || SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) == 0
    }

    /// The ids of the controllers open now.
    public static var connected: [Int32] { open.keys.sorted() }

    /// The controller's name, e.g. `"Xbox Series X Controller"`.
    public static func name(of id: Int32) -> String? {
        open[id].flatMap { SDL_GameControllerName($0) }.map { String(cString: $0) }
    }

    /// Whether `button` is held down now on controller `id`.
    public static func isDown(_ button: ControllerButton, on id: Int32) -> Bool {
        guard let pad = open[id] else { return false }
        return SDL_GameControllerGetButton(pad, SDL_GameControllerButton(button.rawValue)) != 0
    }

    /// Where `axis` is now on controller `id`: sticks −1…1 (right and down
    /// positive), triggers 0…1.
    public static func value(of axis: ControllerAxis, on id: Int32) -> Double {
        guard let pad = open[id] else { return 0 }
        return normalized(SDL_GameControllerGetAxis(pad, SDL_GameControllerAxis(axis.rawValue)))
    }

    /// SDL's −32768…32767 as −1…1.
    static func normalized(_ raw: Int16) -> Double { max(-1, Double(raw) / 32_767) }

    /// Opens the controller at device `index` (from an added event); its instance id.
    static func opened(deviceIndex index: Int32) -> (id: Int32, name: String)? {
        guard let pad = SDL_GameControllerOpen(index) else { return nil }
        let id = SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(pad))
        open[id] = pad
        return (id, SDL_GameControllerName(pad).map { String(cString: $0) } ?? "controller")
    }

    /// Closes every open controller: SDL is about to quit.
    static func closeAll() {
        for pad in open.values { SDL_GameControllerClose(pad) }
        open.removeAll()
    }

    /// Closes controller `id` (from a removed event).
    static func closed(_ id: Int32) {
        if let pad = open.removeValue(forKey: id) { SDL_GameControllerClose(pad) }
    }
}
