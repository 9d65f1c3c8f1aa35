/// Reads EDIDs written as hex text, the way people paste them.
///
/// The text is either all hex, or holds a hex block after a label line:
/// - a bare dump: bytes separated by spaces or colons, or lines of 32 hex
///   digits, optionally after an `EDID:` label;
/// - `edid-decode` output: the dump follows the line `edid-decode (hex):`,
///   with a blank line after each block, and the decoding comes after it;
/// - a whole `xrandr --props` listing: the dump is the indented lines under
///   an output's `EDID:` property (the first output that has one).
/// Tokens are split at whitespace and colons; each must be an even number of
/// hex digits (one or more bytes), apart from an `EDID` label. A line inside a
/// labelled block that is mostly hex bytes but not all (a digit lost or
/// mistyped) is an error, not the end of the block: ending there would
/// silently decode a shorter EDID.
package enum EDIDHexText {
    /// The bytes the text spells, or nil when it neither is hex text nor holds
    /// a labelled hex block (for example a binary file); throws
    /// `EDIDError/brokenHexLine(line:)` for a mistyped line in a block.
    public static func bytes(from text: [UInt8]) throws(EDIDError) -> [UInt8]? {
        if let bytes = allHex(text) { return bytes }
        return try labelledBlock(in: text)
    }

    /// The hex block under the first label line (one ending in `:` and naming
    /// EDID, as `EDID:` and `edid-decode (hex):` do): the hex lines that follow,
    /// blank lines between them allowed, up to the first other line.
    private static func labelledBlock(in text: [UInt8]) throws(EDIDError) -> [UInt8]? {
        let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard isLabelLine(lines[index]) else { continue }
            var block: [UInt8] = []
            var next = index + 1
            while next < lines.count {
                let line = lines[next]
                if line.allSatisfy(isSeparator) {
                    next += 1
                    continue
                }
                guard let bytes = allHex(Array(line)) else {
                    if looksLikeHex(line) { throw .brokenHexLine(line: next + 1) }
                    break
                }
                block += bytes
                next += 1
            }
            if !block.isEmpty { return block }
        }
        return nil
    }

    /// A line like `\tEDID: ` or `edid-decode (hex):`.
    private static func isLabelLine(_ line: ArraySlice<UInt8>) -> Bool {
        let trimmed = line.drop(while: isSeparatorOrSpace).reversed().drop(while: isSeparatorOrSpace).reversed()
        guard trimmed.last == UInt8(ascii: ":") else { return false }
        let lower = trimmed.map { $0 | 0x20 }
        return lower.count >= 5 && (0...(lower.count - 4)).contains { Array(lower[$0..<$0 + 4]) == Array("edid".utf8) }
    }

    private static func isSeparatorOrSpace(_ c: UInt8) -> Bool {
        c == UInt8(ascii: " ") || (0x09...0x0D).contains(c)
    }

    /// The bytes when every token of `text` is hex (or an `EDID` label).
    private static func allHex(_ text: [UInt8]) -> [UInt8]? {
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

    /// Whether most of a line's tokens are hex bytes: a line of the dump with
    /// a typo, as opposed to the text that follows the dump.
    private static func looksLikeHex(_ line: ArraySlice<UInt8>) -> Bool {
        let tokens = line.split(whereSeparator: isSeparator)
        let bytes = tokens.filter { $0.count == 2 && $0.allSatisfy { digit($0) != nil } }
        return bytes.count >= 4 && bytes.count * 2 > tokens.count
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
