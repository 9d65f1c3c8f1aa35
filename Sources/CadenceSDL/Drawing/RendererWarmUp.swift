import CSDL2

extension Renderer {
    /// Draws, invisibly, one of each kind of primitive the library draws
    /// with (a blended fill, a line, triangles, a blended texture plain and
    /// rotated) and waits for the driver to finish, so that what a driver
    /// does on a kind's first use is done before the game's first frame.
    ///
    /// A software OpenGL driver (Mesa's llvmpipe) compiles a pipeline for
    /// each new kind of draw at its first use, and the kernel clears the
    /// memory it first touches: the sample's first frame took 27 to 36 ms of
    /// CPU on Xvfb against 2 ms for the next, and reached the glass late on
    /// every desktop. Everything is drawn blended at alpha 0 on what is
    /// there, so nothing shows; the draw colour and blend mode are given back.
    func warmUp() {
        keepingDrawState(drawEachKind)
        flush()
    }

    /// One of each kind of primitive, blended at alpha 0.
    private func drawEachKind() {
        SDL_SetRenderDrawBlendMode(handle, SDL_BLENDMODE_BLEND)
        let clear = Color(0, 0, 0, 0)
        fill(Rect(x: 0, y: 0, width: 2, height: 2), clear)
        line(from: (0, 0), to: (1, 1), clear)
        fillCircle(center: Point(x: 1, y: 1), radius: 1, clear)
        if let texture = SDL_CreateTexture(handle, CSDL2_PixelFormatARGB8888(), Int32(SDL_TEXTUREACCESS_STATIC.rawValue), 2, 2) {
            defer { SDL_DestroyTexture(texture) }
            let pixels = [UInt32](repeating: 0, count: 4)
            SDL_UpdateTexture(texture, nil, pixels, 8)
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
            SDL_SetTextureAlphaMod(texture, 0)
            var dst = SDL_Rect(x: 0, y: 0, w: 2, h: 2)
            SDL_RenderCopy(handle, texture, nil, &dst)
            SDL_RenderCopyEx(handle, texture, nil, &dst, 30, nil, SDL_FLIP_NONE)
        }
    }
}
