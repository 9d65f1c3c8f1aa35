import Foundation

/// Reads the 24/32-bit uncompressed or bitfield BMPs SDL_SaveBMP writes, so
/// tests can check a screenshot's real pixels.
struct BMPImage {
    let width: Int
    let height: Int
    private let pixels: [(r: UInt8, g: UInt8, b: UInt8)]

    init(path: String) throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ o: Int) -> Int { Int(data[o]) | Int(data[o + 1]) << 8 | Int(data[o + 2]) << 16 | Int(data[o + 3]) << 24 }
        guard data.count > 54, data[0] == 0x42, data[1] == 0x4D else { throw CocoaError(.fileReadCorruptFile) }
        let offset = u32(10)
        width = u32(18)
        let rawHeight = Int32(truncatingIfNeeded: u32(22))
        height = Int(abs(rawHeight))
        let bytesPerPixel = Int(data[28]) / 8
        guard bytesPerPixel == 3 || bytesPerPixel == 4 else { throw CocoaError(.fileReadCorruptFile) }
        let rowSize = (width * bytesPerPixel + 3) / 4 * 4
        var out: [(UInt8, UInt8, UInt8)] = []
        out.reserveCapacity(width * height)
        for y in 0..<height {
            let row = rawHeight > 0 ? height - 1 - y : y
            for x in 0..<width {
                let o = offset + row * rowSize + x * bytesPerPixel
                out.append((data[o + 2], data[o + 1], data[o]))
            }
        }
        pixels = out
    }

    func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) { pixels[y * width + x] }

    /// Every pixel in a rectangle.
    func region(x: Int, y: Int, width w: Int, height h: Int) -> [(r: UInt8, g: UInt8, b: UInt8)] {
        (y..<min(height, y + h)).flatMap { yy in (x..<min(width, x + w)).map { pixel($0, yy) } }
    }
}
