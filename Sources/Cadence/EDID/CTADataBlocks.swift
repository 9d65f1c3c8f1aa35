/// What Cadence reads from a CTA-861 data block collection: the AMD FreeSync
/// and HDMI Forum VRR ranges, and the HF-EEODB's extension count.
///
/// A collection appears in a CTA-861 extension block (bytes 4 up to the DTD
/// offset in byte 2) and, embedded, in a DisplayID 0x81 block.
struct CTADataBlocks {
    /// Ranges found, in the order their blocks appear.
    private(set) var candidates: [VariableRefreshRange] = []
    /// The extension count from an HDMI Forum EDID Extension Override Data
    /// Block, which overrides byte 0x7E for EDIDs with more than one extension.
    private(set) var extensionCountOverride: Int?

    /// Data block tag of vendor-specific blocks.
    static let vendorSpecificTag: UInt8 = 3
    /// Data block tag whose second byte is an extended tag.
    static let extendedTag: UInt8 = 7
    /// Extended tag of the HDMI Forum Sink Capability Data Block (HF-SCDB).
    static let hdmiForumSinkCapabilityTag: UInt8 = 0x79
    /// Extended tag of the HDMI Forum EDID Extension Override Data Block.
    static let extensionOverrideTag: UInt8 = 0x78
    /// AMD's OUI 00-00-1A, least significant byte first as stored.
    static let amdOUI: [UInt8?] = [0x1A, 0x00, 0x00]
    /// The HDMI Forum's OUI C4-5D-D8, least significant byte first as stored.
    static let hdmiForumOUI: [UInt8?] = [0xD8, 0x5D, 0xC4]

    /// Walks the collection. Each block is a header byte (tag in bits 7–5,
    /// payload length in bits 4–0) and its payload; a block running past the
    /// collection's end is read as far as it goes.
    init(collection: ByteWindow) {
        var offset = 0
        while let header = collection[offset] {
            let length = Int(header & 0x1F)
            read(block: collection.window(from: offset, count: length + 1), tag: header >> 5)
            offset += length + 1
        }
    }

    /// Reads one block; `b` starts at its header byte, as the offsets do in the specs.
    private mutating func read(block b: ByteWindow, tag: UInt8) {
        let oui = [b[1], b[2], b[3]]
        if tag == Self.vendorSpecificTag, oui == Self.amdOUI {
            append(Self.amdRange(b), .amdVSDB)
        } else if tag == Self.vendorSpecificTag, oui == Self.hdmiForumOUI {
            append(Self.hdmiForumRange(b), .hdmiForumVRR)
        } else if tag == Self.extendedTag, b[1] == Self.hdmiForumSinkCapabilityTag {
            // The HF-SCDB keeps the HF-VSDB's layout: two reserved bytes where the OUI's last two were.
            append(Self.hdmiForumRange(b), .hdmiForumVRR)
        } else if tag == Self.extendedTag, b[1] == Self.extensionOverrideTag, let count = b.int(at: 2) {
            extensionCountOverride = extensionCountOverride ?? count
        }
    }

    private mutating func append(_ range: RefreshRange?, _ source: VariableRefreshSource) {
        if let range { candidates.append(VariableRefreshRange(range, source: source)) }
    }

    /// FreeSync: +6 minimum Hz, +7 maximum Hz; from version 3 the maximum is
    /// 10 bits, `((b[15] & 3) << 8) | b[14]`. A version-3 block cut short
    /// before those bytes keeps the legacy 8-bit maximum at +7.
    static func amdRange(_ b: ByteWindow) -> RefreshRange? {
        guard let version = b[4], let minHz = b.int(at: 6), let legacyMax = b.int(at: 7) else { return nil }
        if version >= 3, let low = b.int(at: 14), let high = b.int(at: 15) {
            return RefreshRange(minHz: minHz, maxHz: ((high & 3) << 8) | low)
        }
        return RefreshRange(minHz: minHz, maxHz: legacyMax)
    }

    /// HDMI Forum: VRRmin is bits 5–0 of +9; VRRmax is bits 7–6 of +9 over +10.
    static func hdmiForumRange(_ b: ByteWindow) -> RefreshRange? {
        guard let packed = b.int(at: 9), let low = b.int(at: 10) else { return nil }
        return RefreshRange(minHz: packed & 0x3F, maxHz: ((packed >> 6) << 8) | low)
    }
}
