import Cadence
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

    /// Writes the image as a 32-bit BMP, atomically: the file is written under
    /// a temporary name beside `path` and renamed over it only when complete,
    /// so a full disk or a crash never leaves a truncated image in place of an
    /// older one (Cadence's `AtomicReplacement`). Call it for a game's screenshots.
    public func saveBMP(to path: String) throws {
        try AtomicReplacement.write(try bmpBytes(), to: path)
    }

    /// The same for a path given as the file system's bytes, which need not
    /// be UTF-8 (see Cadence's `RawArguments`).
    public func saveBMP(toPathBytes path: [UInt8]) throws {
        try AtomicReplacement.write(try bmpBytes(), toPathBytes: path)
    }

    /// The image as the bytes of a 32-bit BMP file, encoded by `SDL_SaveBMP_RW` in memory.
    public func bmpBytes() throws -> [UInt8] {
        var pixels = argb
        // A generous bound: the pixels plus the largest header SDL writes.
        var file = [UInt8](repeating: 0, count: width * height * 4 + 1_024)
        let size = try pixels.withUnsafeMutableBytes { buf in
            guard let surface = SDL_CreateRGBSurfaceWithFormatFrom(
                buf.baseAddress, Int32(width), Int32(height), 32, Int32(width * 4),
                CSDL2_PixelFormatARGB8888()
            ) else { throw SDLError("SDL_CreateRGBSurfaceWithFormatFrom") }
            defer { SDL_FreeSurface(surface) }
            return try file.withUnsafeMutableBytes { out in
                guard let stream = SDL_RWFromMem(out.baseAddress, Int32(out.count)) else { throw SDLError("SDL_RWFromMem") }
                defer { SDL_RWclose(stream) }
                try check(SDL_SaveBMP_RW(surface, stream, 0), "SDL_SaveBMP_RW")
                return Int(SDL_RWtell(stream))
            }
        }
        return Array(file.prefix(size))
    }
}
