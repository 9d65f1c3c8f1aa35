#if canImport(Glibc)
import Glibc
#endif

/// The pixel size an image file declares in its header, read before any
/// pixel is decoded: a file of a hundred bytes can claim 60000x60000, and a
/// decoder allocates that (14 GB) before it finds the pixels missing. Read
/// for BMP, PNG, JPEG, GIF (its screen), WebP and QOI; other formats go to
/// SDL_image as they are.
enum ImageHeader {
    /// The width and height the file at `path` (the file system's bytes)
    /// declares; nil when it cannot be opened or is in none of the formats read.
    static func declaredSize(pathBytes: [UInt8]) -> (width: Int, height: Int)? {
        let fd = (pathBytes + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let file = FileBytes(fd: fd)
        let start = file.read(at: 0, count: 32)
        if start.starts(with: [0x42, 0x4D]) { return bmp(file) }
        if start.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return size(start.bigEndian(at: 16, bytes: 4), start.bigEndian(at: 20, bytes: 4))
        }
        if start.starts(with: [0xFF, 0xD8]) { return jpeg(file) }
        if start.starts(with: Array("GIF8".utf8)) {
            return size(start.littleEndian(at: 6, bytes: 2), start.littleEndian(at: 8, bytes: 2))
        }
        if start.starts(with: Array("qoif".utf8)) {
            return size(start.bigEndian(at: 4, bytes: 4), start.bigEndian(at: 8, bytes: 4))
        }
        if start.count >= 30, start.starts(with: Array("RIFF".utf8)), Array(start[8..<12]) == Array("WEBP".utf8) {
            return webp(start)
        }
        return nil
    }

    /// BMP: the core header's 16-bit size, or the info header's signed 32-bit
    /// one (a negative height: rows top down).
    private static func bmp(_ file: FileBytes) -> (width: Int, height: Int)? {
        let header = file.read(at: 14, count: 12)
        guard let headerSize = header.littleEndian(at: 0, bytes: 4) else { return nil }
        if headerSize == 12 { return size(header.littleEndian(at: 4, bytes: 2), header.littleEndian(at: 6, bytes: 2)) }
        guard let width = header.littleEndian(at: 4, bytes: 4), let height = header.littleEndian(at: 8, bytes: 4)
        else { return nil }
        return (Int(Int32(bitPattern: UInt32(width)).magnitude), Int(Int32(bitPattern: UInt32(height)).magnitude))
    }

    /// JPEG: the first start-of-frame segment's size, found by walking the
    /// segments from the start of the image to the start of the scan.
    private static func jpeg(_ file: FileBytes) -> (width: Int, height: Int)? {
        var offset = 2
        for _ in 0..<100_000 {
            let marker = file.read(at: offset, count: 9)
            guard marker.count >= 2, marker[0] == 0xFF else { return nil }
            let kind = marker[1]
            switch kind {
            case 0xFF: offset += 1   // fill byte
            case 0x01, 0xD0...0xD8: offset += 2   // no length
            case 0xDA, 0xD9: return nil   // the scan (or the end) with no frame before it
            case 0xC0...0xCF where ![0xC4, 0xC8, 0xCC].contains(kind):
                return size(marker.bigEndian(at: 7, bytes: 2), marker.bigEndian(at: 5, bytes: 2))
            default:
                guard let length = marker.bigEndian(at: 2, bytes: 2), length >= 2 else { return nil }
                offset += 2 + length
            }
        }
        return nil
    }

    /// WebP: the lossy frame's 14-bit size, the lossless one's, or the extended canvas's.
    private static func webp(_ start: [UInt8]) -> (width: Int, height: Int)? {
        switch String(decoding: start[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard let width = start.littleEndian(at: 26, bytes: 2), let height = start.littleEndian(at: 28, bytes: 2)
            else { return nil }
            return (width & 0x3FFF, height & 0x3FFF)
        case "VP8L":
            guard let bits = start.littleEndian(at: 21, bytes: 4) else { return nil }
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard let width = start.littleEndian(at: 24, bytes: 3), let height = start.littleEndian(at: 27, bytes: 3)
            else { return nil }
            return (width + 1, height + 1)
        default: return nil
        }
    }

    private static func size(_ width: Int?, _ height: Int?) -> (width: Int, height: Int)? {
        guard let width, let height else { return nil }
        return (width, height)
    }
}

/// A file's bytes read where asked, a few at a time.
private struct FileBytes {
    let fd: Int32

    /// Up to `count` bytes at `offset`; fewer at the end of the file.
    func read(at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return Array(bytes.prefix(max(0, got)))
    }
}

private extension Array where Element == UInt8 {
    func littleEndian(at offset: Int, bytes: Int) -> Int? {
        guard offset >= 0, offset + bytes <= count else { return nil }
        return (0..<bytes).reduce(0) { $0 | Int(self[offset + $1]) << (8 * $1) }
    }

    func bigEndian(at offset: Int, bytes: Int) -> Int? {
        guard offset >= 0, offset + bytes <= count else { return nil }
        return (0..<bytes).reduce(0) { $0 << 8 | Int(self[offset + $1]) }
    }
}
