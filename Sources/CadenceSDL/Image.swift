import CSDL2

/// Pixels read back from a renderer, 32-bit ARGB, row-major, top row first.
public struct Image: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// One `0xAARRGGBB` value per pixel.
    public let argb: [UInt32]

    /// Wraps pixels already in ARGB8888 order.
    public init(width: Int, height: Int, argb: [UInt32]) {
        precondition(argb.count == width * height, "pixel count must match the size")
        self.width = width; self.height = height; self.argb = argb
    }

    /// The pixel at (x, y) as (r, g, b).
    public func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let p = argb[y * width + x]
        return (UInt8((p >> 16) & 0xFF), UInt8((p >> 8) & 0xFF), UInt8(p & 0xFF))
    }

    /// Writes the image as a 32-bit BMP through `SDL_SaveBMP`.
    public func saveBMP(to path: String) throws {
        var pixels = argb
        try pixels.withUnsafeMutableBytes { buf in
            guard let surface = SDL_CreateRGBSurfaceWithFormatFrom(
                buf.baseAddress, Int32(width), Int32(height), 32, Int32(width * 4),
                CSDL2_PixelFormatARGB8888()
            ) else { throw SDLError("SDL_CreateRGBSurfaceWithFormatFrom") }
            defer { SDL_FreeSurface(surface) }
            try check(CSDL2_SaveBMP(surface, path), "SDL_SaveBMP(\(path))")
        }
    }
}
