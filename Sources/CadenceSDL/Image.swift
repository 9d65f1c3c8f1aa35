import CSDL2

/// Pixels read back from a renderer, 32-bit ARGB, row-major, top row first.
public struct Image: Sendable {
    public let width: Int
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

    /// Loads a BMP file (any depth SDL reads) as ARGB pixels; used to check screenshots.
    public static func loadBMP(_ path: String) throws -> Image {
        guard let loaded = CSDL2_LoadBMP(path) else { throw SDLError("SDL_LoadBMP(\(path))") }
        defer { SDL_FreeSurface(loaded) }
        guard let converted = SDL_ConvertSurfaceFormat(loaded, CSDL2_PixelFormatARGB8888(), 0)
        else { throw SDLError("SDL_ConvertSurfaceFormat") }
        defer { SDL_FreeSurface(converted) }
        let s = converted.pointee
        let w = Int(s.w), h = Int(s.h), pitch = Int(s.pitch)
        var out = [UInt32](repeating: 0, count: w * h)
        let base = s.pixels.assumingMemoryBound(to: UInt8.self)
        for y in 0..<h {
            let row = UnsafeRawPointer(base + y * pitch).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { out[y * w + x] = row[x] }
        }
        return Image(width: w, height: h, argb: out)
    }
}
