import Testing
@testable import Cadence

@Suite("EDID hex text input")
struct EDIDHexTextTests {
    private let bytes: [UInt8] = {
        var builder = EDIDBuilder()
        builder.descriptors = [EDIDBuilder.productName("HEXMON")]
        builder.extensions = [EDIDBuilder.cta([EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)])]
        return builder.bytes()
    }()

    private func hexPairs(_ bytes: [UInt8]) -> [String] {
        bytes.map { let s = String($0, radix: 16); return s.count == 1 ? "0" + s : s }
    }

    @Test func spaceSeparatedLinesAsEdidDecodePrints() throws {
        let lines = stride(from: 0, to: bytes.count, by: 16).map {
            hexPairs(Array(bytes[$0..<$0 + 16])).joined(separator: " ")
        }
        let edid = try EDID(contents: Array(lines.joined(separator: "\n").utf8))
        #expect(edid.productName == "HEXMON")
        #expect(edid.variableRefresh?.source == .amdVSDB)
    }

    @Test func xrandrPropsStyleWithLabelAndTabs() throws {
        let lines = stride(from: 0, to: bytes.count, by: 16).map {
            "\t\t" + hexPairs(Array(bytes[$0..<$0 + 16])).joined()
        }
        let text = "\tEDID: \n" + lines.joined(separator: "\n") + "\n"
        #expect(EDIDHexText.bytes(from: Array(text.utf8)) == bytes)
    }

    @Test func colonSeparatedUppercase() {
        let text = hexPairs(bytes).map { $0.uppercased() }.joined(separator: ":")
        #expect(EDIDHexText.bytes(from: Array(text.utf8)) == bytes)
    }

    @Test func textThatIsNotHexIsRejected() {
        #expect(EDIDHexText.bytes(from: Array("00 ff fg".utf8)) == nil)
        #expect(EDIDHexText.bytes(from: Array("00 ff f".utf8)) == nil)          // odd digit count
        #expect(EDIDHexText.bytes(from: Array("monitor: 00 ff".utf8)) == nil)
        #expect(EDIDHexText.bytes(from: Array(" \n\t:".utf8)) == nil)
        #expect(EDIDHexText.bytes(from: []) == nil)
    }

    @Test func binaryInputIsNotMistakenForText() throws {
        // Binary bytes pass through even when they happen to be ASCII after the header.
        let edid = try EDID(contents: bytes)
        #expect(edid.productName == "HEXMON")
    }

    @Test func hexTextOfSomethingElseIsStillNotAnEDID() {
        #expect(throws: EDIDError.badHeader(found: [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0])) {
            try EDID(contents: Array("12 34 56 78 9a bc de f0 00".utf8))
        }
        #expect(throws: EDIDError.tooShort(byteCount: 8)) {
            try EDID(contents: Array("00 ff ff ff ff ff ff 00".utf8))
        }
    }
}
