import CSDL2

/// An SDL window: title, size, resizable, fullscreen (desktop) and where it sits.
public final class Window {
    /// The `SDL_Window *`, for games that call SDL directly; valid while the window lives.
    public let handle: OpaquePointer

    /// Opens a window centred on the primary display.
    ///
    /// - Parameters:
    ///   - fullscreen: borderless fullscreen at the desktop mode. Desktop
    ///     fullscreen never changes the display mode, so it is instant and is
    ///     what variable refresh needs to take effect.
    ///   - hidden: create without showing, for tests that only need a surface.
    public init(title: String, width: Int, height: Int,
                resizable: Bool = true, fullscreen: Bool = false, hidden: Bool = false) throws {
        var flags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if resizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        if fullscreen { flags |= CSDL2_WindowFullscreenDesktop() }
        flags |= hidden ? SDL_WINDOW_HIDDEN.rawValue : SDL_WINDOW_SHOWN.rawValue
        guard let window = SDL_CreateWindow(
            title, CSDL2_WindowPosCentered(), CSDL2_WindowPosCentered(),
            Int32(width), Int32(height), flags
        ) else { throw SDLError("SDL_CreateWindow") }
        handle = window
    }

    deinit { SDL_DestroyWindow(handle) }

    /// Whether the window is fullscreen (exclusive or desktop), from SDL's flags.
    public var isFullscreen: Bool {
        SDL_GetWindowFlags(handle) & SDL_WINDOW_FULLSCREEN.rawValue != 0
    }

    /// Switches between windowed and borderless desktop fullscreen.
    public func setFullscreen(_ on: Bool) throws {
        try check(SDL_SetWindowFullscreen(handle, on ? CSDL2_WindowFullscreenDesktop() : 0),
                  "SDL_SetWindowFullscreen")
    }

    /// The index of the display the window is mostly on.
    public var displayIndex: Int32 { SDL_GetWindowDisplayIndex(handle) }
}
