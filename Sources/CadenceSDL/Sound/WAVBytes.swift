/// A WAV file in memory, written from the format's definition (RIFF, a
/// `fmt ` chunk for 16-bit PCM, a `data` chunk): how ``Sound/init(samples:sampleRate:)``
/// hands samples made in code to SDL_mixer, which converts a WAV to its format.
enum WAVBytes {
    /// Mono 16-bit PCM at `sampleRate`, from samples −1…1 (clipped beyond).
    static func mono16(_ samples: [Float], sampleRate: Int) -> [UInt8] {
        let data = samples.flatMap { sample -> [UInt8] in
            le16(UInt16(bitPattern: Int16((min(max(sample, -1), 1) * 32_767).rounded())))
        }
        let format = le16(1) + le16(1) + le32(UInt32(sampleRate)) + le32(UInt32(sampleRate * 2)) + le16(2) + le16(16)
        let body = Array("WAVE".utf8) + Array("fmt ".utf8) + le32(UInt32(format.count)) + format
            + Array("data".utf8) + le32(UInt32(data.count)) + data
        return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
}
