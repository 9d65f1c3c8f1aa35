/// A decoded EDID: the facts Cadence needs to know whether a display can vary
/// its refresh rate, and over which range.
///
/// Decoding never traps and never loops on bad input: every field is read
/// through a bounds-checked window and every walk advances. Input that is not
/// an EDID throws `EDIDError`; oddities that real monitors ship (bad
/// checksums, missing extension blocks) are kept in ``warnings`` and decoding
/// goes on, as the kernel and X server do.
@_spi(Programs) public struct EDID: Equatable, Sendable {
    /// Every EDID starts with these eight bytes.
    public static let header: [UInt8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
    /// The base block and every extension block are this long.
    public static let blockSize = 128

    /// Byte 0x12, the EDID version (1 for every EDID in use).
    public let version: UInt8
    /// Byte 0x13, the revision: 3 for EDID 1.3, 4 for 1.4.
    public let revision: UInt8
    /// Byte 0x18 bit 0: in EDID 1.4 "continuous frequency", i.e. the display
    /// accepts any timing inside its range limits. (EDID 1.3 used the bit for GTF.)
    public let continuousFrequencyBit: Bool
    /// How many extension blocks the EDID announces: byte 0x7E, or the HDMI
    /// Forum EEODB's count when the first extension carries one.
    public let announcedExtensionCount: Int
    /// The tag (first byte) of each extension block decoded: 0x02 CTA-861, 0x70 DisplayID.
    public let extensionTags: [UInt8]
    /// The monitor's name from the 0xFC descriptor; SDL2 on X11 names displays by it.
    public let productName: String?
    /// The first 0xFD descriptor, whatever its timing class.
    public let rangeLimits: RangeLimits?
    /// Every range a block advertises, in the selection rule's order, valid or not.
    /// 0xFD is included only when it qualifies (see ``variableRefresh``).
    public let variableRefreshCandidates: [VariableRefreshRange]
    /// The display's variable refresh range: the first valid one of DisplayID
    /// Adaptive-Sync, AMD FreeSync, HDMI Forum VRR, DisplayID Dynamic Video
    /// Timing Range, and the 0xFD range when the EDID is 1.4 with continuous
    /// frequency and the range-limits-only class. Nil means a fixed-refresh
    /// display as far as the EDID tells: 0xFD alone proves nothing otherwise.
    public let variableRefresh: VariableRefreshRange?
    /// Checksum and length problems found while decoding.
    public let warnings: [EDIDWarning]
    /// Why the bytes, though they start like an EDID, cannot be believed: a
    /// version other than 1, or most of at least two blocks failing their
    /// checksums (random bytes after a header). Nil for a real EDID, even one
    /// with a checksum slip. An untrustworthy EDID has no ``variableRefresh``.
    public let untrustworthyReason: String?

    /// Decodes binary EDID bytes (a base block and its extensions).
    public init(bytes: [UInt8]) throws(EDIDError) {
        if bytes.count >= Self.header.count, !bytes.starts(with: Self.header) {
            throw .badHeader(found: Array(bytes.prefix(Self.header.count)))
        }
        guard bytes.count >= Self.blockSize else { throw .tooShort(byteCount: bytes.count) }

        let base = ByteWindow(bytes, count: Self.blockSize)
        version = base[0x12] ?? 0
        revision = base[0x13] ?? 0
        continuousFrequencyBit = (base[0x18] ?? 0) & 1 != 0
        let isVersion1_4 = version == 1 && revision >= 4
        let descriptors = DisplayDescriptors(base: base, isVersion1_4: isVersion1_4)
        productName = descriptors.productName
        rangeLimits = descriptors.rangeLimits

        let blocksPresent = (bytes.count - Self.blockSize) / Self.blockSize
        let baseCount = base.int(at: 0x7E) ?? 0
        // An EEODB counts only in an announced first extension (byte 0x7E then says 1).
        let firstExtension = baseCount > 0
            ? ExtensionBlock(ByteWindow(bytes, start: Self.blockSize, count: Self.blockSize)) : nil
        announcedExtensionCount = firstExtension?.extensionCountOverride ?? baseCount
        let decodedCount = min(announcedExtensionCount, blocksPresent)

        var warnings: [EDIDWarning] = []
        var tags: [UInt8] = []
        var candidates: [VariableRefreshRange] = []
        for block in 0...decodedCount {
            let window = ByteWindow(bytes, start: block * Self.blockSize, count: Self.blockSize)
            let sum = window.array.reduce(UInt8(0), &+)
            if sum != 0 { warnings.append(.checksumMismatch(block: block, sum: sum)) }
            guard block > 0 else { continue }
            tags.append(window[0] ?? 0)
            candidates += ExtensionBlock(window)?.candidates ?? []
        }
        if announcedExtensionCount > blocksPresent {
            warnings.append(.missingExtensions(declared: announcedExtensionCount, present: blocksPresent))
        }
        let trailing = bytes.count - (decodedCount + 1) * Self.blockSize
        if trailing > 0 { warnings.append(.trailingBytes(count: trailing)) }

        if let limits = rangeLimits, isVersion1_4, continuousFrequencyBit,
           limits.timingClass == RangeLimits.rangeLimitsOnlyClass {
            candidates.append(VariableRefreshRange(limits.vertical, source: .rangeLimits))
        }
        extensionTags = tags
        self.warnings = warnings
        let blocks = decodedCount + 1
        let badChecksums = warnings.filter { if case .checksumMismatch = $0 { true } else { false } }.count
        untrustworthyReason = version != 1 ? "EDID version \(version).\(revision): every EDID in use is version 1"
            : badChecksums >= 2 && badChecksums * 2 > blocks ? "\(badChecksums) of its \(blocks) blocks fail their checksums"
            : nil
        variableRefreshCandidates = VariableRefreshRange.inRuleOrder(candidates)
        variableRefresh = untrustworthyReason != nil ? nil
            : variableRefreshCandidates.first { $0.range.isValidVariableRefresh }
    }

    /// Decodes a file's contents: binary EDID bytes, or hex text as
    /// `xrandr --props` and `edid-decode` print it (see `EDIDHexText`).
    public init(contents: [UInt8]) throws(EDIDError) {
        let text = contents.starts(with: Self.header) ? nil : try EDIDHexText.bytes(from: contents)
        try self.init(bytes: text ?? contents)
    }

    /// `"1.4"`.
    public var versionString: String { "\(version).\(revision)" }
}

/// One extension block, reduced to the variable refresh ranges it advertises.
private struct ExtensionBlock {
    static let ctaTag: UInt8 = 0x02
    static let displayIDTag: UInt8 = 0x70

    let candidates: [VariableRefreshRange]
    let extensionCountOverride: Int?

    /// Nil for a block of a kind Cadence does not read (or an empty window).
    init?(_ block: ByteWindow) {
        switch block[0] {
        case Self.ctaTag:
            // Data blocks run from byte 4 to the DTD offset in byte 2 (0: none).
            let end = min(block.int(at: 2) ?? 0, 127)
            let blocks = CTADataBlocks(collection: block.window(from: 4, count: end - 4))
            candidates = blocks.candidates
            extensionCountOverride = blocks.extensionCountOverride
        case Self.displayIDTag:
            candidates = DisplayIDSection(block: block).candidates
            extensionCountOverride = nil
        default:
            return nil
        }
    }
}
