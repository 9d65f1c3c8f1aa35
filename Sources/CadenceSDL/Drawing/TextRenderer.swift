import CSDL2

/// Draws text with SDL_ttf, at its size or any other per call, caching each
/// string's texture between frames.
///
/// Overlay text changes a little every frame (a rate, a percentile) but mostly
/// repeats; the cache keeps the strings drawn last frame and drops the rest, so
/// text costs a texture upload only when it changes and memory stays bounded.
public final class TextRenderer {
    /// Where Debian's `fonts-dejavu-core` (installed by `Scripts/setup`) puts the font.
    public static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

    private let font: OpaquePointer
    /// The font's file, opened again for each other size drawn.
    private let fontPath: String
    /// The size `font` has, the one ``draw(_:x:y:color:size:)`` uses by default.
    private let size: Int
    /// The same font at the other sizes drawn so far.
    private var sizes: [Int: OpaquePointer] = [:]
    /// The renderer it draws with.
    let renderer: Renderer
    private var cache: [CacheKey: Texture] = [:]
    private var usedThisFrame: Set<CacheKey> = []
    /// The height of one line in pixels, at the font's size.
    public let lineHeight: Int

    private struct CacheKey: Hashable {
        let text: String
        let rgba: UInt32
        let size: Int
    }

    /// Opens a TrueType font at a pixel size; throws ``FontUnavailable``, naming the font, if it cannot.
    public init(renderer: Renderer, fontPath: String = TextRenderer.defaultFontPath, size: Int = 16) throws {
        if TTF_WasInit() == 0 {
            try check(TTF_Init(), "TTF_Init")
        }
        guard let font = TTF_OpenFont(fontPath, Int32(size)) else {
            throw FontUnavailable(path: fontPath, reason: String(cString: SDL_GetError()))
        }
        self.font = font
        self.fontPath = fontPath
        self.size = size
        self.renderer = renderer
        lineHeight = Int(TTF_FontLineSkip(font))
    }

    deinit {
        cache.removeAll()
        TTF_CloseFont(font)
        for other in sizes.values { TTF_CloseFont(other) }
    }

    /// The font at `size` pixels (nil: its own size), opened on first use;
    /// nil where it cannot be (a size of 0 or less).
    private func font(_ size: Int?) -> OpaquePointer? {
        guard let size, size != self.size else { return font }
        if let open = sizes[size] { return open }
        guard size > 0, let opened = TTF_OpenFont(fontPath, Int32(size)) else { return nil }
        sizes[size] = opened
        return opened
    }

    /// The width in pixels `text` would take, at `size` pixels or the font's own.
    public func width(of text: String, size: Int? = nil) -> Int {
        var w: Int32 = 0, h: Int32 = 0
        guard let font = font(size) else { return 0 }
        TTF_SizeUTF8(font, text, &w, &h)
        return Int(w)
    }

    /// Draws `text` with its top-left corner at (x, y), at `size` pixels
    /// (a title at 48, a score at 24) or by default the font's own size.
    public func draw(_ text: String, x: Int, y: Int, color: Color = Color(235, 235, 240), size: Int? = nil) {
        guard !text.isEmpty, let font = font(size) else { return }
        let key = CacheKey(text: text, rgba: UInt32(color.r) << 24 | UInt32(color.g) << 16 | UInt32(color.b) << 8 | UInt32(color.a),
                           size: size ?? self.size)
        usedThisFrame.insert(key)
        let texture: Texture
        if let cached = cache[key] {
            texture = cached
        } else {
            let sdlColor = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
            guard let surface = TTF_RenderUTF8_Blended(font, text, sdlColor) else { return }
            defer { SDL_FreeSurface(surface) }
            guard let handle = SDL_CreateTextureFromSurface(renderer.handle, surface) else { return }
            texture = Texture(handle: handle, width: Int(surface.pointee.w), height: Int(surface.pointee.h))
            cache[key] = texture
        }
        renderer.draw(texture, in: Rect(x: x, y: y, width: texture.width, height: texture.height))
    }

    /// Drops textures of strings not drawn since the last call; call once a frame.
    public func endFrame() {
        if cache.count > usedThisFrame.count {
            cache = cache.filter { usedThisFrame.contains($0.key) }
        }
        usedThisFrame.removeAll(keepingCapacity: true)
    }
}

/// A font that cannot be opened, named with what to install: without it a
/// game has no text, and the player should know which file is missing.
public struct FontUnavailable: Error, CustomStringConvertible, Sendable {
    /// The font's path.
    public let path: String
    /// SDL_ttf's words.
    public let reason: String

    /// `the font /usr/share/…/DejaVuSansMono.ttf cannot be opened (…): install
    /// Debian's fonts-dejavu-core`; the package is named for the default font only.
    public var description: String {
        "the font \(path) cannot be opened (\(reason))"
            + (path == TextRenderer.defaultFontPath ? ": install Debian's fonts-dejavu-core (Scripts/setup does)" : "")
    }
}
