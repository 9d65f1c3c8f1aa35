/// A PNG file written out by hand from the format's definition (RFC 2083):
/// 8-bit RGBA, the image data in one zlib stream of stored (uncompressed)
/// deflate blocks. Independent of SDL_image, which the tests read it with.
enum PNGBytes {
    /// The file for `rows` of RGBA pixels, top row first.
    static func rgba(_ rows: [[(UInt8, UInt8, UInt8, UInt8)]]) -> [UInt8] {
        let width = rows[0].count, height = rows.count
        // Each row: filter type 0 (none), then its pixels.
        let raw: [UInt8] = rows.flatMap { row -> [UInt8] in [0] + row.flatMap { p -> [UInt8] in [p.0, p.1, p.2, p.3] } }
        var zlib: [UInt8] = [0x78, 0x01]
        // One stored block holds at most 65,535 bytes; the last has BFINAL set.
        var blocks = stride(from: 0, to: raw.count, by: 65_535).map { Array(raw[$0..<min($0 + 65_535, raw.count)]) }
        if blocks.isEmpty { blocks = [[]] }
        for (i, block) in blocks.enumerated() {
            let length = UInt16(block.count)
            let final: UInt8 = i == blocks.count - 1 ? 1 : 0
            zlib += [final] + le16(length) + le16(~length) + block
        }
        zlib += be32(adler32(raw))
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// The signature and a header chunk declaring `width` x `height` 8-bit
    /// RGBA, its CRC right, then `data` as the start of an image data chunk
    /// that the file ends inside: a decoder reads the size, then runs out.
    static func cut(width: UInt32, height: UInt32, data: [UInt8]) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
            + be32(65_536) + Array("IDAT".utf8) + data
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(UInt32(data.count)) + typed + be32(crc32(typed))
    }

    /// CRC-32 as PNG defines it (polynomial 0xEDB88320, reflected).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Adler-32, zlib's checksum of the uncompressed data.
    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        return b << 16 | a
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
}
