import CSDL2

/// An SDL window: title, size, resizable, fullscreen (desktop) and where it sits.
public final class Window {
    /// The `SDL_Window *`, for games that call SDL directly; valid while the window lives.
    public let handle: OpaquePointer

    /// Opens a window centred on the primary display.
    ///
    /// - Parameters:
    ///   - title: the window's title.
    ///   - width: the width asked for, in pixels.
    ///   - height: the height asked for, in pixels.
    ///   - resizable: whether the player can resize it.
    ///   - fitsDesktop: place it inside the display's usable area (the desktop
    ///     minus panels and docks), shrunk to fit when asked for more than that
    ///     area holds. Off for offscreen windows, whose "desktop" is notional.
    ///   - minimumSize: the smallest size the player can resize it to.
    ///   - fullscreen: borderless fullscreen at the desktop mode. Desktop
    ///     fullscreen never changes the display mode, so it is instant and is
    ///     what variable refresh needs to take effect.
    ///   - hidden: create without showing, for tests that only need a surface.
    public init(title: String, width: Int, height: Int, fitsDesktop: Bool = false, minimumSize: (width: Int, height: Int)? = nil,
                resizable: Bool = true, fullscreen: Bool = false, hidden: Bool = false) throws {
        var flags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if resizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        if fullscreen { flags |= CSDL2_WindowFullscreenDesktop() }
        flags |= hidden ? SDL_WINDOW_HIDDEN.rawValue : SDL_WINDOW_SHOWN.rawValue
        var x = CSDL2_WindowPosCentered(), y = CSDL2_WindowPosCentered()
        var (w, h) = (width, height)
        var usable = SDL_Rect()
        if fitsDesktop, SDL_GetDisplayUsableBounds(0, &usable) == 0, usable.w > 0, usable.h > 0 {
            // Leave room for the title bar the window manager adds above the window.
            let titleBar = 32
            w = min(w, Int(usable.w))
            h = min(h, max(1, Int(usable.h) - titleBar))
            x = usable.x + (usable.w - Int32(w)) / 2
            y = usable.y + Int32(titleBar) + (usable.h - Int32(titleBar) - Int32(h)) / 2
        }
        guard let window = SDL_CreateWindow(title, x, y, Int32(w), Int32(h), flags) else {
            throw Self.creationFailure()
        }
        handle = window
        if let minimumSize { SDL_SetWindowMinimumSize(window, Int32(minimumSize.width), Int32(minimumSize.height)) }
    }

    deinit { SDL_DestroyWindow(handle) }

    /// Why `SDL_CreateWindow` failed. SDL's X11 driver fails without a word
    /// where `SDL_VIDEO_X11_WINDOW_VISUALID` names no visual of the server: said here.
    private static func creationFailure() -> SDLError {
        let said = SDLError("SDL_CreateWindow")
        guard said.message.isEmpty else { return said }
        let visual = processEnvironment()["SDL_VIDEO_X11_WINDOW_VISUALID"].flatMap { $0.isEmpty ? nil : $0 }
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "no"
        return SDLError("SDL_CreateWindow", message: "SDL's \(driver) driver gave no reason"
            + (visual.map { "; SDL_VIDEO_X11_WINDOW_VISUALID=\($0) is set, and the X11 driver fails silently "
                + "when it names no visual of the X server: unset it or name one xdpyinfo lists" } ?? ""))
    }

    /// The text in the window's title bar (and the desktop's task list).
    public var title: String {
        get { String(cString: SDL_GetWindowTitle(handle)) }
        set { SDL_SetWindowTitle(handle, newValue) }
    }

    /// Whether the window is fullscreen (exclusive or desktop), from SDL's flags.
    public var isFullscreen: Bool {
        SDL_GetWindowFlags(handle) & SDL_WINDOW_FULLSCREEN.rawValue != 0
    }

    /// The window's size and place before it went fullscreen.
    private var windowedFrame: SDL_Rect?

    /// Switches between windowed and borderless desktop fullscreen.
    ///
    /// Back in a window, the size and place it had before are asked for again.
    /// SDL restores them itself, but under an X server with no window manager
    /// it keeps the fullscreen size as the window's while the server gives
    /// the window back its old one: drawing then lands off the window by the
    /// difference and the mouse no longer meets what it points at.
    public func setFullscreen(_ on: Bool) throws {
        if on, !isFullscreen {
            var frame = SDL_Rect()
            SDL_GetWindowPosition(handle, &frame.x, &frame.y)
            SDL_GetWindowSize(handle, &frame.w, &frame.h)
            windowedFrame = frame
        }
        try check(SDL_SetWindowFullscreen(handle, on ? CSDL2_WindowFullscreenDesktop() : 0),
                  "SDL_SetWindowFullscreen")
        if !on, let frame = windowedFrame {
            windowedFrame = nil
            SDL_SetWindowSize(handle, frame.w, frame.h)
            SDL_SetWindowPosition(handle, frame.x, frame.y)
            keepTopOnDesktop()
        }
    }

    /// Moves the window down or right into the display's usable area where
    /// its top-left corner lies outside it: with no window manager, SDL takes
    /// away a title bar's height that is not there, and the window's top
    /// lines end up above the screen.
    private func keepTopOnDesktop() {
        var usable = SDL_Rect(), x: Int32 = 0, y: Int32 = 0
        guard SDL_GetDisplayUsableBounds(max(0, displayIndex), &usable) == 0, usable.w > 0 else { return }
        SDL_GetWindowPosition(handle, &x, &y)
        if x < usable.x || y < usable.y { SDL_SetWindowPosition(handle, max(x, usable.x), max(y, usable.y)) }
    }

    /// The window's size in screen coordinates, as SDL knows it.
    public var size: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(handle, &w, &h)
        return (Int(w), Int(h))
    }

    /// The index of the display the window is mostly on.
    public var displayIndex: Int32 { SDL_GetWindowDisplayIndex(handle) }
}
