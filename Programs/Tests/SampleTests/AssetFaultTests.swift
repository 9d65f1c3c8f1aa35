import Foundation
import Testing

/// Assets that cannot be used, as a player meets them: an image whose header
/// claims far more than a texture holds, and the overlay's font missing
/// (hidden by a private mount namespace, as root).
@Suite("Assets that cannot be used")
struct AssetFaultTests {
    /// A 118-byte BMP whose header claims 60000x60000 (14.4 GB of pixels),
    /// written from the format's definition.
    static var bomb: [UInt8] {
        let le32 = { (v: UInt32) in (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        let info = le32(40) + le32(60_000) + le32(60_000) + [1, 0, 24, 0] + le32(0) + le32(0)
            + le32(2835) + le32(2835) + le32(0) + le32(0)
        return Array("BM".utf8) + le32(118) + le32(0) + le32(54) + info + [UInt8](repeating: 0x7F, count: 64)
    }

    static let fontDirectory = "/usr/share/fonts/truetype/dejavu"
    static let canHideFont = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    @Test("--sprite with a 118-byte BMP claiming 60000x60000: exit 65 naming the size, under 100 MB at its peak",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")))
    func imageBomb() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bomb.bmp").path
        try Data(Self.bomb).write(to: URL(fileURLWithPath: path))
        let sprite = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        // GNU time's %M: the peak resident set in KiB, on its own last line of standard error.
        let result = try Subprocess.runExecutable("/usr/bin/time", ["-f", "%M", sprite, "--headless", "--frames", "5",
                                                                   "--sprite", path], timeout: 60)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("--sprite: \"\(path)\" declares 60000x60000 pixels, more than the renderer's largest texture"),
                "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        let peak = try #require(lines.last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, "\(result.stderr)")
        #expect(peak < 100_000, "peak resident memory \(peak / 1024) MB")
    }

    /// Runs `command` with the DejaVu fonts hidden under an empty tmpfs, in a mount namespace of its own.
    private func withoutFont(_ command: [String], environment: [String: String] = [:]) throws -> Subprocess.Result {
        try Subprocess.runExecutable("/usr/bin/unshare", ["--mount", "--propagation", "private", "sh", "-c",
                                                          "mount -t tmpfs none \(Self.fontDirectory) || exit 70; exec \"$@\"",
                                                          "sh"] + command, environment: environment, timeout: 90)
    }

    @Test("The sample without its font: it names the font and the package, not the sprite", .enabled(if: canHideFont))
    func sampleWithoutFont() throws {
        let sprite = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        let result = try withoutFont([sprite, "--headless", "--frames", "5"])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("the font \(Self.fontDirectory)/DejaVuSansMono.ttf cannot be opened"), "\(result.stderr)")
        #expect(result.stderr.contains("install Debian's fonts-dejavu-core"), "\(result.stderr)")
        #expect(!result.stderr.contains("--sprite"), "\(result.stderr)")
    }

    @Test("The template without its font runs on without the panel and says why", .enabled(if: canHideFont))
    func templateWithoutFont() throws {
        let template = Subprocess.productsDirectory.appendingPathComponent("template").path
        let result = try withoutFont(["/usr/bin/xvfb-run", "-a", template, "--frames", "30"], environment: ["SDL_VIDEODRIVER": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("template: no statistics panel: the font \(Self.fontDirectory)/DejaVuSansMono.ttf "
                                       + "cannot be opened"), "\(result.stderr)")
        #expect(result.stderr.contains("fonts-dejavu-core"), "\(result.stderr)")
        #expect(result.stdout.contains("frames 30"), "\(result.stdout)")
    }
}
