/// Assembles EDIDs byte by byte from the EDID 1.4, CTA-861 and DisplayID 2.0
/// layouts, fixing checksums, so every test vector says in code what it holds.
struct EDIDBuilder {
    /// Byte 0x12.
    var version: UInt8 = 1
    /// Byte 0x13.
    var revision: UInt8 = 4
    /// Byte 0x18 bit 0.
    var continuousFrequency = false
    /// Up to four 18-byte descriptors for offsets 54, 72, 90, 108; the rest are dummies (tag 0x10).
    var descriptors: [[UInt8]] = []
    /// 128-byte extension blocks; their checksums are fixed by ``bytes()``.
    var extensions: [[UInt8]] = []
    /// Byte 0x7E when it should disagree with ``extensions``.
    var announcedExtensions: UInt8?
    /// Leaves block 0's checksum wrong by one.
    var breakChecksum = false

    /// The EDID's bytes.
    func bytes() -> [UInt8] {
        var base = [UInt8](repeating: 0, count: 128)
        base[0..<8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        base[0x12] = version
        base[0x13] = revision
        base[0x14] = 0x80                                // digital input
        base[0x18] = continuousFrequency ? 0x01 : 0x00
        for slot in 0..<4 {
            let descriptor = slot < descriptors.count ? descriptors[slot] : Self.dummyDescriptor
            precondition(descriptor.count == 18, "descriptors are 18 bytes")
            base[54 + 18 * slot ..< 72 + 18 * slot] = descriptor[...]
        }
        base[0x7E] = announcedExtensions ?? UInt8(extensions.count)
        var result = Self.withChecksum(base)
        if breakChecksum { result[127] &+= 1 }
        for block in extensions { result += Self.withChecksum(block) }
        return result
    }

    /// A block whose last byte makes all 128 sum to 0 modulo 256.
    static func withChecksum(_ block: [UInt8]) -> [UInt8] {
        precondition(block.count == 128, "blocks are 128 bytes")
        var block = block
        block[127] = 0
        block[127] = 0 &- block.reduce(0, &+)
        return block
    }

    // MARK: Base block descriptors

    /// Tag 0x10, "dummy descriptor".
    static let dummyDescriptor: [UInt8] = [0, 0, 0, 0x10] + [UInt8](repeating: 0, count: 14)

    /// Tag 0xFC: up to 13 ASCII bytes, a line feed, then spaces.
    static func productName(_ name: String) -> [UInt8] {
        text(tag: 0xFC, Array(name.utf8))
    }

    /// A text descriptor with raw bytes (for names that are not plain ASCII).
    static func text(tag: UInt8, _ text: [UInt8]) -> [UInt8] {
        precondition(text.count <= 13)
        var field = text
        if field.count < 13 { field.append(0x0A) }
        while field.count < 13 { field.append(0x20) }
        return [0, 0, 0, tag, 0] + field
    }

    /// Tag 0xFD: byte 4 offset flags, 5/6 min/max vertical Hz (before offsets),
    /// 7/8 horizontal kHz, 9 pixel clock / 10 MHz, 10 timing class.
    static func rangeLimits(minHz: UInt8, maxHz: UInt8, flags: UInt8 = 0, timingClass: UInt8 = 0x01) -> [UInt8] {
        [0, 0, 0, 0xFD, flags, minHz, maxHz, 30, 160, 30, timingClass, 0x0A] + [UInt8](repeating: 0x20, count: 6)
    }

    // MARK: Extension blocks

    /// A CTA-861 block: tag 2, revision 3, byte 2 = the DTD offset (data
    /// blocks end there; by default right after them), byte 3 flags, data blocks from byte 4.
    static func cta(_ dataBlocks: [[UInt8]], dtdOffset: UInt8? = nil) -> [UInt8] {
        let payload = dataBlocks.flatMap { $0 }
        var block: [UInt8] = [0x02, 0x03, dtdOffset ?? UInt8(4 + payload.count), 0x00] + payload
        block += [UInt8](repeating: 0, count: 128 - block.count)
        return block
    }

    /// A DisplayID 2.0 extension: tag 0x70, version, section length, product
    /// type, extension count, data blocks, the section checksum, padding.
    static func displayID(_ dataBlocks: [[UInt8]], sectionLength: UInt8? = nil) -> [UInt8] {
        let payload = dataBlocks.flatMap { $0 }
        var block: [UInt8] = [0x70, 0x20, sectionLength ?? UInt8(payload.count), 0x00, 0x00] + payload
        block.append(0 &- block[1...].reduce(0, &+))
        block += [UInt8](repeating: 0, count: 128 - block.count)
        return block
    }

    // MARK: CTA-861 data blocks

    /// A data block header: tag in bits 7–5, payload length in bits 4–0.
    static func dataBlock(tag: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [tag << 5 | UInt8(payload.count)] + payload
    }

    /// AMD FreeSync VSDB (OUI 1A 00 00): +4 version, +6 min, +7 max; version 3
    /// adds the 10-bit maximum at +14/+15 (`legacyMax` goes in +7).
    static func amdVSDB(version: UInt8, minHz: UInt8, maxHz: Int, legacyMax: UInt8? = nil) -> [UInt8] {
        if version < 3 {
            return dataBlock(tag: 3, [0x1A, 0x00, 0x00, version, 0x01, minHz, UInt8(maxHz), 0x00])
        }
        var payload: [UInt8] = [0x1A, 0x00, 0x00, version, 0x01, minHz, legacyMax ?? UInt8(min(maxHz, 255))]
        payload += [UInt8](repeating: 0, count: 6)                     // +8 … +13
        payload += [UInt8(maxHz & 0xFF), UInt8(maxHz >> 8)] + [0, 0, 0]  // +14, +15, +16 … +18
        return dataBlock(tag: 3, payload)
    }

    /// HDMI Forum VSDB (OUI D8 5D C4): +9 = VRRmax bits 9–8 in bits 7–6 and
    /// VRRmin in bits 5–0; +10 = VRRmax bits 7–0.
    static func hdmiForumVSDB(minHz: Int, maxHz: Int) -> [UInt8] {
        dataBlock(tag: 3, [0xD8, 0x5D, 0xC4] + hdmiForumTail(minHz: minHz, maxHz: maxHz))
    }

    /// HDMI Forum Sink Capability Data Block: extended tag 7 / 0x79, two
    /// reserved bytes, then the HF-VSDB's fields at the same offsets.
    static func hdmiForumSCDB(minHz: Int, maxHz: Int) -> [UInt8] {
        dataBlock(tag: 7, [0x79, 0x00, 0x00] + hdmiForumTail(minHz: minHz, maxHz: maxHz))
    }

    /// +4 … +12 of an HF-VSDB: version, TMDS rate, flags, then VRR at +9/+10.
    private static func hdmiForumTail(minHz: Int, maxHz: Int) -> [UInt8] {
        [0x01, 0x78, 0x80, 0x00, 0x00, UInt8(maxHz >> 8) << 6 | UInt8(minHz & 0x3F), UInt8(maxHz & 0xFF), 0, 0]
    }

    /// HDMI Forum EDID Extension Override Data Block: extended tag 0x78, the real extension count.
    static func eeodb(count: UInt8) -> [UInt8] {
        dataBlock(tag: 7, [0x78, count])
    }

    // MARK: DisplayID data blocks

    /// Adaptive-Sync (0x2B): descriptors of 6 + bits 6–4 of the revision bytes;
    /// d[2] min Hz, d[3] and d[4] bits 1–0 = max − 1.
    static func adaptiveSync(_ ranges: [(minHz: UInt8, maxHz: Int)], revision: UInt8 = 0) -> [UInt8] {
        let size = 6 + Int((revision >> 4) & 7)
        let descriptors = ranges.flatMap { range -> [UInt8] in
            let stored = range.maxHz - 1
            let d: [UInt8] = [0x27, 0x00, range.minHz, UInt8(stored & 0xFF), UInt8((stored >> 8) & 3), 0x00]
            return d + [UInt8](repeating: 0, count: size - 6)
        }
        return [0x2B, revision, UInt8(descriptors.count)] + descriptors
    }

    /// Dynamic Video Timing Range Limits (0x25): +3…+8 pixel clocks, +9 min Hz,
    /// +10 max Hz bits 7–0, +11 bits 1–0 max bits 9–8 (read when revision bits 2–0 ≠ 0).
    static func dynamicRange(minHz: UInt8, maxHz: Int, revision: UInt8) -> [UInt8] {
        [0x25, revision, 9, 0x10, 0x27, 0x00, 0x40, 0x9C, 0x00, minHz, UInt8(maxHz & 0xFF), UInt8((maxHz >> 8) & 3)]
    }

    /// CTA-861 data blocks embedded in DisplayID (0x81).
    static func ctaInDisplayID(_ dataBlocks: [[UInt8]]) -> [UInt8] {
        let payload = dataBlocks.flatMap { $0 }
        return [0x81, 0x00, UInt8(payload.count)] + payload
    }
}
