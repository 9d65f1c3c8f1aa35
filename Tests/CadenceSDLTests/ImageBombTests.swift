#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@_spi(Programs) @testable import CadenceSDL

extension SDLSuites {
    /// Image files of about a hundred bytes whose headers claim 60000x60000
    /// (14.4 GB of RGBA), written out from each format's definition: refused
    /// from the header, before a decoder allocates what it claims.
    @Suite("Image files declaring more than a texture holds")
    struct ImageBombs {
        static let claimed: UInt32 = 60_000

        /// BMP: a 14-byte file header and a 40-byte BITMAPINFOHEADER (24 bits,
        /// uncompressed), then 64 bytes of pixels where 14.4 GB are due: 118 bytes.
        static var bmp: [UInt8] {
            let info = le32(40) + le32(claimed) + le32(claimed) + [1, 0, 24, 0] + le32(0) + le32(0)
                + le32(2835) + le32(2835) + le32(0) + le32(0)
            return Array("BM".utf8) + le32(118) + le32(0) + le32(54) + info + [UInt8](repeating: 0x7F, count: 64)
        }

        /// PNG: the signature, a header chunk with its CRC, and a cut image data chunk: 100 bytes.
        static var png: [UInt8] { PNGBytes.cut(width: claimed, height: claimed, data: [0x78, 0x01] + [UInt8](repeating: 0, count: 57)) }

        /// JPEG: start of image, a quantisation table and a baseline frame
        /// header (three components), cut before the scan.
        static var jpeg: [UInt8] {
            let table: [UInt8] = [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
            let frame: [UInt8] = [0xFF, 0xC0, 0x00, 0x11, 8] + be16(claimed) + be16(claimed)
                + [3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]
            return [0xFF, 0xD8] + table + frame
        }

        private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        private static func be16(_ v: UInt32) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

        private func write(_ bytes: [UInt8], _ name: String) throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-bomb-\(getpid())-\(name)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// The process's peak resident memory so far, in bytes.
        private func peakMemory() -> Int {
            var usage = rusage()
            getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
            return usage.ru_maxrss * 1024
        }

        @Test("Each file is refused through Texture(file:) (and a BMP through Texture(bmpFile:)), naming the size, under 100 MB")
        func refusedBeforeDecoding() throws {
            #expect(Self.bmp.count == 118 && Self.png.count == 100)
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 64, height: 48, hidden: true)
            let renderer = try Renderer(window: window, software: true, vsync: .off)
            let limit = renderer.textureLimit
            #expect(limit.width > 0 && limit.width < Int(Self.claimed) && limit.height < Int(Self.claimed))
            let files = [("bomb.bmp", Self.bmp), ("bomb.png", Self.png), ("bomb.jpg", Self.jpeg)]
            let before = peakMemory()
            for (name, bytes) in files {
                let path = try write(bytes, name)
                defer { try? FileManager.default.removeItem(atPath: path) }
                let loads: [(String, () throws -> Texture)] = [("file", { try Texture(file: path, renderer: renderer) })]
                    + (name.hasSuffix(".bmp") ? [("bmpFile", { try Texture(bmpFile: path, renderer: renderer) })] : [])
                for (way, load) in loads {
                    let error = #expect(throws: ImageTooLarge.self, "\(name) through \(way)") { try load() }
                    #expect(error.map { ($0.width, $0.height) == (60_000, 60_000) } == true, "\(name)")
                    #expect(error?.description.contains("declares 60000x60000 pixels") == true, "\(String(describing: error))")
                }
            }
            let grown = peakMemory() - before
            #expect(grown < 100_000_000, "peak memory grew \(grown / 1_000_000) MB")
        }

        @Test("The size each format declares, read from its header")
        func declaredSizes() throws {
            let gif = Array("GIF89a".utf8) + [0x10, 0x27, 0x20, 0x4E] + [UInt8](repeating: 0, count: 24)   // 10000x20000
            let qoi = Array("qoif".utf8) + [0, 0, 0x03, 0xE8, 0, 0, 0x07, 0xD0, 4, 0] + [UInt8](repeating: 0, count: 20)
            // Lossless WebP: 14 bits of width − 1 (299), then of height − 1 (199).
            let bits = UInt32(299) | UInt32(199) << 14
            let webp = Array("RIFF".utf8) + [64, 0, 0, 0] + Array("WEBPVP8L".utf8) + [20, 0, 0, 0, 0x2F]
                + (0..<4).map { UInt8(bits >> (8 * $0) & 0xFF) } + [UInt8](repeating: 0, count: 8)
            // An OS/2 BMP's 12-byte core header: 16-bit sizes.
            let core = Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [12, 0, 0, 0, 0x20, 0x03, 0x58, 0x02, 1, 0, 24, 0]
            let cases: [(String, [UInt8], (Int, Int)?)] = [
                ("bmp", Self.bmp, (60_000, 60_000)), ("png", Self.png, (60_000, 60_000)),
                ("jpg", Self.jpeg, (60_000, 60_000)), ("gif", gif, (10_000, 20_000)), ("qoi", qoi, (1_000, 2_000)),
                ("webp", webp, (300, 200)), ("core.bmp", core, (800, 600)), ("txt", Array("hello".utf8), nil),
            ]
            for (name, bytes, expected) in cases {
                let path = try write(bytes, "size." + name)
                defer { try? FileManager.default.removeItem(atPath: path) }
                let size = ImageHeader.declaredSize(pathBytes: Array(path.utf8))
                #expect(size.map { [$0.width, $0.height] } == expected.map { [$0.0, $0.1] }, "\(name)")
            }
        }
    }
}
