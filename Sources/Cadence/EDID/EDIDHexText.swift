/// Reads EDIDs written as hex text, the way people paste them.
///
/// `xrandr --props` prints an `EDID:` label and lines of 32 hex digits;
/// `edid-decode` and hex dumps print bytes separated by spaces or colons.
/// Tokens are split at whitespace and colons; each must be an even number of
/// hex digits (one or more bytes), apart from an `EDID` label.
public enum EDIDHexText {
    /// The bytes the text spells, or nil when it is not hex text (for example
    /// a binary file, or text with other words in it).
    public static func bytes(from text: [UInt8]) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(text.count / 2)
        var start = 0
        while start < text.count {
            guard !isSeparator(text[start]) else { start += 1; continue }
            var end = start
            while end < text.count, !isSeparator(text[end]) { end += 1 }
            guard append(text[start..<end], to: &result) else { return nil }
            start = end
        }
        return result.isEmpty ? nil : result
    }

    private static func isSeparator(_ c: UInt8) -> Bool {
        c == UInt8(ascii: " ") || c == UInt8(ascii: ":") || (0x09...0x0D).contains(c)
    }

    /// Appends a token's bytes; false when the token is not hex (an `EDID` label is skipped).
    private static func append(_ token: ArraySlice<UInt8>, to result: inout [UInt8]) -> Bool {
        if isLabel(token) { return true }
        guard token.count % 2 == 0 else { return false }
        var index = token.startIndex
        while index < token.endIndex {
            guard let high = digit(token[index]), let low = digit(token[index + 1]) else { return false }
            result.append(high << 4 | low)
            index += 2
        }
        return true
    }

    /// Whether the token is `EDID` in any case, as `xrandr --props` labels the property.
    private static func isLabel(_ token: ArraySlice<UInt8>) -> Bool {
        token.count == 4 && zip(token, "edid".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    private static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
