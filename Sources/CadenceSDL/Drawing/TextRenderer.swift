import CSDL2

/// Draws overlay text with SDL_ttf, caching each string's texture between frames.
///
/// Overlay text changes a little every frame (a rate, a percentile) but mostly
/// repeats; the cache keeps the strings drawn last frame and drops the rest, so
/// text costs a texture upload only when it changes and memory stays bounded.
public final class TextRenderer {
    /// Where Debian's `fonts-dejavu-core` (installed by `Scripts/setup`) puts the font.
    public static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

    private let font: OpaquePointer
    /// The renderer it draws with.
    let renderer: Renderer
    private var cache: [CacheKey: Texture] = [:]
    private var usedThisFrame: Set<CacheKey> = []
    /// The height of one line in pixels.
    public let lineHeight: Int

    private struct CacheKey: Hashable {
        let text: String
        let rgba: UInt32
    }

    /// Opens a TrueType font at a pixel size; throws naming the path if it cannot.
    public init(renderer: Renderer, fontPath: String = TextRenderer.defaultFontPath, size: Int = 16) throws {
        if TTF_WasInit() == 0 {
            try check(TTF_Init(), "TTF_Init")
        }
        guard let font = TTF_OpenFont(fontPath, Int32(size)) else {
            throw SDLError("TTF_OpenFont(\(fontPath))")
        }
        self.font = font
        self.renderer = renderer
        lineHeight = Int(TTF_FontLineSkip(font))
    }

    deinit {
        cache.removeAll()
        TTF_CloseFont(font)
    }

    /// The width in pixels `text` would take.
    public func width(of text: String) -> Int {
        var w: Int32 = 0, h: Int32 = 0
        TTF_SizeUTF8(font, text, &w, &h)
        return Int(w)
    }

    /// Draws `text` with its top-left corner at (x, y).
    public func draw(_ text: String, x: Int, y: Int, color: Color = Color(235, 235, 240)) {
        guard !text.isEmpty else { return }
        let key = CacheKey(text: text, rgba: UInt32(color.r) << 24 | UInt32(color.g) << 16 | UInt32(color.b) << 8 | UInt32(color.a))
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
