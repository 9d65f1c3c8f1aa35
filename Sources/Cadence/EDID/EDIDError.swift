/// Why bytes are not an EDID at all. Checksum and length disagreements are
/// not errors: real monitors ship them, so they become `EDIDWarning`s.
@_spi(Programs) public enum EDIDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer than the 128 bytes of a base block.
    case tooShort(byteCount: Int)
    /// The first eight bytes are not `00 FF FF FF FF FF FF 00`.
    case badHeader(found: [UInt8])
    /// Line `line` (from 1) of a hex dump is mostly hex bytes but not all: a typo.
    case brokenHexLine(line: Int)

    /// A message a user can act on, e.g. for `display-probe edid`.
    public var description: String {
        switch self {
        case .tooShort(let count):
            "not an EDID: \(count) bytes, but an EDID's base block alone is 128 bytes"
        case .badHeader(let found):
            "not an EDID: it starts \(hex(found)), but an EDID starts \(hex(EDID.header))"
        case .brokenHexLine(let line):
            "a broken hex dump: line \(line) is not all hex bytes (a digit lost or mistyped?)"
        }
    }
}

/// Something odd about an EDID that does not stop it being decoded.
@_spi(Programs) public enum EDIDWarning: Equatable, Sendable, CustomStringConvertible {
    /// A 128-byte block whose bytes do not sum to 0 modulo 256.
    case checksumMismatch(block: Int, sum: UInt8)
    /// The EDID announces more extension blocks than the bytes hold.
    case missingExtensions(declared: Int, present: Int)
    /// Bytes past the last announced block, ignored.
    case trailingBytes(count: Int)

    /// One line for stderr.
    public var description: String {
        switch self {
        case .checksumMismatch(let block, let sum):
            "checksum mismatch in block \(block) (bytes sum to 0x\(hex([sum])), expected 0x00); decoding anyway"
        case .missingExtensions(let declared, let present):
            "the EDID announces \(declared) extension block(s) but only \(present) are present; decoding those"
        case .trailingBytes(let count):
            "\(count) byte(s) after the last announced block ignored"
        }
    }
}

/// Bytes as `00 FF 1A`, for messages.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }.joined(separator: " ")
}
