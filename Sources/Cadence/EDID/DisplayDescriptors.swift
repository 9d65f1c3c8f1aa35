/// The base block's four 18-byte descriptors, reduced to what Cadence needs:
/// the product name (0xFC) and the first range limits (0xFD).
struct DisplayDescriptors {
    /// Where the four descriptors start in the base block.
    static let offsets = [54, 72, 90, 108]
    /// A descriptor's size in bytes.
    static let size = 18

    /// The first product name descriptor's text, nil when there is none or it is blank.
    let productName: String?
    /// The first 0xFD descriptor.
    let rangeLimits: RangeLimits?

    /// Reads the descriptors of `base`, the first 128 bytes of an EDID.
    init(base: ByteWindow, isVersion1_4: Bool) {
        var name: String?
        var limits: RangeLimits?
        for offset in Self.offsets {
            let d = base.window(from: offset, count: Self.size)
            // Display descriptors start 00 00; anything else is a detailed timing.
            guard d[0] == 0, d[1] == 0, let tag = d[3] else { continue }
            if tag == 0xFC, name == nil { name = Self.text(d) }
            if tag == 0xFD, limits == nil { limits = RangeLimits(descriptor: d, isVersion1_4: isVersion1_4) }
        }
        productName = name
        rangeLimits = limits
    }

    /// A descriptor's 13-byte text field: ends at a line feed (or NUL), trailing
    /// spaces trimmed. Bytes outside printable ASCII become `?` so a broken
    /// name still prints and compares as a plain string.
    static func text(_ d: ByteWindow) -> String? {
        var scalars = String.UnicodeScalarView()
        for offset in 5..<size {
            guard let byte = d[offset], byte != 0x0A, byte != 0x00 else { break }
            scalars.append(Unicode.Scalar((0x20...0x7E).contains(byte) ? byte : UInt8(ascii: "?")))
        }
        var text = String(scalars)
        while text.last == " " { text.removeLast() }
        return text.isEmpty ? nil : text
    }
}
