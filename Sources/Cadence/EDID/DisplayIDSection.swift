/// What Cadence reads from a DisplayID extension block (tag 0x70): the
/// Adaptive-Sync (0x2B) and Dynamic Video Timing Range (0x25) ranges, and the
/// CTA-861 data blocks a 0x81 block embeds (laptop panels put FreeSync there).
struct DisplayIDSection {
    /// Ranges found, in the order their blocks appear.
    private(set) var candidates: [VariableRefreshRange] = []

    /// Data blocks start after the five-byte section header.
    static let firstBlockOffset = 5
    /// DisplayID 2.0 Dynamic Video Timing Range Limits.
    static let dynamicRangeTag: UInt8 = 0x25
    /// DisplayID 2.0 Adaptive-Sync.
    static let adaptiveSyncTag: UInt8 = 0x2B
    /// CTA-861 data blocks carried in DisplayID.
    static let ctaTag: UInt8 = 0x81

    /// Walks the section of `block`, an extension block starting with tag 0x70.
    /// Byte 2 is the section's payload length; each data block is
    /// [tag][revision][length][payload]. Byte 127 is the EDID checksum, never data.
    init(block: ByteWindow) {
        let length = block.int(at: 2) ?? 0
        let section = block.window(from: Self.firstBlockOffset, count: min(length, 127 - Self.firstBlockOffset))
        var offset = 0
        while let tag = section[offset] {
            let payloadLength = section.int(at: offset + 2) ?? 0
            let b = section.window(from: offset, count: 3 + payloadLength)
            let revision = b[1] ?? 0
            switch tag {
            case Self.adaptiveSyncTag:
                append(Self.adaptiveSyncRange(b, revision: revision), .displayIDAdaptiveSync)
            case Self.dynamicRangeTag:
                append(Self.dynamicRange(b, revision: revision), .displayIDDynamicRange)
            case Self.ctaTag:
                candidates += CTADataBlocks(collection: b.window(from: 3, count: payloadLength)).candidates
            default:
                break
            }
            offset += 3 + payloadLength
        }
    }

    private mutating func append(_ range: RefreshRange?, _ source: VariableRefreshSource) {
        if let range { candidates.append(VariableRefreshRange(range, source: source)) }
    }

    /// The first Adaptive-Sync descriptor (6 + bits 6–4 of the revision bytes
    /// each): d[2] minimum Hz, maximum `1 + d[3] + ((d[4] & 3) << 8)` Hz.
    static func adaptiveSyncRange(_ b: ByteWindow, revision: UInt8) -> RefreshRange? {
        let descriptorSize = 6 + Int((revision >> 4) & 7)
        let d = b.window(from: 3, count: descriptorSize)
        guard let minHz = d.int(at: 2), let low = d.int(at: 3), let high = d.int(at: 4) else { return nil }
        return RefreshRange(minHz: minHz, maxHz: 1 + low + ((high & 3) << 8))
    }

    /// Dynamic Video Timing Range: +9 minimum Hz, +10 maximum Hz; when the
    /// revision's bits 2–0 are non-zero, bits 1–0 of +11 are the maximum's high bits.
    static func dynamicRange(_ b: ByteWindow, revision: UInt8) -> RefreshRange? {
        guard let minHz = b.int(at: 9), let low = b.int(at: 10) else { return nil }
        guard revision & 7 != 0 else { return RefreshRange(minHz: minHz, maxHz: low) }
        guard let high = b.int(at: 11) else { return nil }
        return RefreshRange(minHz: minHz, maxHz: ((high & 3) << 8) | low)
    }
}
