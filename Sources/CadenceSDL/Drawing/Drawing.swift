import CSDL2

/// Which way to mirror a texture as it is drawn: a sprite facing the other way.
public struct Flip: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Mirrored left to right.
    public static let horizontal = Flip(rawValue: SDL_FLIP_HORIZONTAL.rawValue)
    /// Mirrored top to bottom.
    public static let vertical = Flip(rawValue: SDL_FLIP_VERTICAL.rawValue)
}

/// Drawing: SDL's 2D renderer, thin. Everything is drawn into the frame the
/// loop presents; coordinates are the window's pixels, or the logical ones
/// set by ``setLogicalSize(width:height:)``.
extension Renderer {
    /// Sets the colour for following clears, fills and lines.
    public func setColor(_ c: Color) {
        SDL_SetRenderDrawColor(handle, c.r, c.g, c.b, c.a)
    }

    /// Runs `body`, then gives back the draw colour and blend mode it found:
    /// what the library draws outside the game's frames (the renderer's
    /// warm-up, the window's first picture) leaves them as a game that calls
    /// SDL directly may have set them, once for all its frames.
    func keepingDrawState(_ body: () -> Void) {
        var (r, g, b, a): (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var mode = SDL_BLENDMODE_BLEND
        SDL_GetRenderDrawColor(handle, &r, &g, &b, &a)
        SDL_GetRenderDrawBlendMode(handle, &mode)
        body()
        SDL_SetRenderDrawColor(handle, r, g, b, a)
        SDL_SetRenderDrawBlendMode(handle, mode)
    }

    /// Fills the whole target with `color`.
    public func clear(_ color: Color) {
        setColor(color)
        SDL_RenderClear(handle)
    }

    /// Fills a rectangle with `color` (blended when alpha < 255).
    public func fill(_ rect: Rect, _ color: Color) {
        setColor(color)
        var r = rect.sdl
        SDL_RenderFillRect(handle, &r)
    }

    /// Fills a box, between pixels (SDL covers the pixels whose centres it contains).
    public func fill(_ box: Box, _ color: Color) {
        setColor(color)
        var r = box.sdl
        SDL_RenderFillRectF(handle, &r)
    }

    /// Draws a rectangle's outline.
    public func outline(_ rect: Rect, _ color: Color) {
        setColor(color)
        var r = rect.sdl
        SDL_RenderDrawRect(handle, &r)
    }

    /// Draws a one-pixel line.
    public func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), _ color: Color) {
        setColor(color)
        SDL_RenderDrawLine(handle, Int32(a.x), Int32(a.y), Int32(b.x), Int32(b.y))
    }

    /// Draws `texture` into `rect`, rotated clockwise by `degrees` about its centre.
    ///
    /// - Parameters:
    ///   - texture: what to draw.
    ///   - source: the part of the texture to draw, in its pixels (one frame
    ///     of a sprite sheet); nil for all of it.
    ///   - rect: where on the renderer, in its (logical) pixels.
    ///   - degrees: the clockwise rotation about the rectangle's centre.
    ///   - flip: mirror it as it is drawn.
    ///   - tint: multiplies the texture's colours by its red, green and blue
    ///     (white leaves them, red keeps only their red: a hit's flash) and
    ///     its alpha by its alpha (128 draws it half transparent: a fade).
    public func draw(_ texture: Texture, source: Rect? = nil, in rect: Rect, rotation degrees: Double = 0,
                     flip: Flip = [], tint: Color = .white) {
        var dst = rect.sdl
        tinting(texture, tint)
        withSource(source) { SDL_RenderCopyEx(handle, texture.handle, $0, &dst, degrees, nil, SDL_RendererFlip(flip.rawValue)) }
    }

    /// Draws `texture` (or its `source` part) into a box, between pixels,
    /// rotated, mirrored and tinted as the other `draw` does.
    public func draw(_ texture: Texture, source: Rect? = nil, in box: Box, rotation degrees: Double = 0,
                     flip: Flip = [], tint: Color = .white) {
        var dst = box.sdl
        tinting(texture, tint)
        withSource(source) { SDL_RenderCopyExF(handle, texture.handle, $0, &dst, degrees, nil, SDL_RendererFlip(flip.rawValue)) }
    }

    /// Sets `texture`'s colour and alpha modulation for the next copy (SDL
    /// takes them when the copy is queued, so one texture can be drawn in
    /// several tints in a frame).
    private func tinting(_ texture: Texture, _ tint: Color) {
        SDL_SetTextureColorMod(texture.handle, tint.r, tint.g, tint.b)
        SDL_SetTextureAlphaMod(texture.handle, tint.a)
    }

    /// Calls `body` with a pointer to `source` as SDL takes it, nil for the whole texture.
    private func withSource(_ source: Rect?, _ body: (UnsafePointer<SDL_Rect>?) -> Int32) {
        guard var src = source?.sdl else { _ = body(nil); return }
        _ = withUnsafePointer(to: &src) { body($0) }
    }

    /// Lays the game out at `width` by `height` whatever the window's size:
    /// SDL scales every drawing call (and mouse positions in events) to fit
    /// the window, keeping the aspect ratio with bars at the sides or top.
    /// A game drawn for 800x600 then fills a larger window instead of its corner.
    public func setLogicalSize(width: Int, height: Int) {
        SDL_RenderSetLogicalSize(handle, Int32(width), Int32(height))
    }

    /// Runs `body` drawing in the window's pixels whatever the logical size,
    /// then restores it: for what belongs to the window rather than to the
    /// game's coordinates (the statistics panel, a debug line), which a
    /// logical size would otherwise scale and squeeze.
    public func inWindowPixels<T>(_ body: () throws -> T) rethrows -> T {
        guard let size = logicalSize else { return try body() }
        // SDL draws the calls queued so far with the scale they were made at.
        SDL_RenderSetLogicalSize(handle, 0, 0)
        defer { SDL_RenderSetLogicalSize(handle, Int32(size.width), Int32(size.height)) }
        return try body()
    }

    /// The size set by ``setLogicalSize(width:height:)``; nil when drawing is in window pixels.
    public var logicalSize: (width: Int, height: Int)? {
        var w: Int32 = 0, h: Int32 = 0
        SDL_RenderGetLogicalSize(handle, &w, &h)
        return w > 0 && h > 0 ? (Int(w), Int(h)) : nil
    }
}
