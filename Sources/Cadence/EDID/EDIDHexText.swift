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
        var token: [UInt8] = []
        for character in text + [UInt8(ascii: " ")] {
            if isSeparator(character) {
                guard flush(token, into: &result) else { return nil }
                token.removeAll(keepingCapacity: true)
            } else {
                token.append(character)
            }
        }
        return result.isEmpty ? nil : result
    }

    private static func isSeparator(_ c: UInt8) -> Bool {
        c == UInt8(ascii: " ") || c == UInt8(ascii: ":") || (0x09...0x0D).contains(c)
    }

    /// Appends a token's bytes; false when the token is not hex.
    private static func flush(_ token: [UInt8], into result: inout [UInt8]) -> Bool {
        if token.isEmpty || token.map(lowercased) == Array("edid".utf8) { return true }
        guard token.count % 2 == 0 else { return false }
        var index = 0
        while index < token.count {
            guard let high = digit(token[index]), let low = digit(token[index + 1]) else { return false }
            result.append(high << 4 | low)
            index += 2
        }
        return true
    }

    private static func lowercased(_ c: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c) ? c + 32 : c
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
