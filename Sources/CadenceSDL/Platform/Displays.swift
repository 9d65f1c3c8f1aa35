import CSDL2

/// What SDL reports about one display: name, bounds and current mode.
@_spi(Programs) public struct DisplayInfo: Equatable, Sendable {
    /// SDL's display index.
    public let index: Int32
    /// The display's name; on X11 SDL2 uses the monitor's EDID product name.
    public let name: String
    /// Position and size on the desktop, in screen coordinates.
    public let bounds: Rect
    /// The current mode's refresh rate in Hz; 0 when SDL does not know.
    public let refreshHz: Int
    /// The current mode's size in pixels.
    public let modeWidth: Int
    /// The current mode's height in pixels; with the width, matched against a DRM connector's mode.
    public let modeHeight: Int
}

/// Display queries through SDL (requires an initialised ``SDLSession``).
@_spi(Programs) public enum Displays {
    /// Every display SDL sees, in index order; empty when it sees none.
    public static func all() -> [DisplayInfo] {
        let count = SDL_GetNumVideoDisplays()
        guard count > 0 else { return [] }
        return (0..<count).compactMap(info)
    }

    /// One display's facts, or nil when SDL cannot answer for that index.
    public static func info(_ index: Int32) -> DisplayInfo? {
        var mode = SDL_DisplayMode()
        guard SDL_GetCurrentDisplayMode(index, &mode) == 0 else { return nil }
        var r = SDL_Rect()
        SDL_GetDisplayBounds(index, &r)
        let name = SDL_GetDisplayName(index).map { String(cString: $0) } ?? "display \(index)"
        return DisplayInfo(index: index, name: name,
                           bounds: Rect(x: Int(r.x), y: Int(r.y), width: Int(r.w), height: Int(r.h)),
                           refreshHz: Int(mode.refresh_rate),
                           modeWidth: Int(mode.w), modeHeight: Int(mode.h))
    }
}
