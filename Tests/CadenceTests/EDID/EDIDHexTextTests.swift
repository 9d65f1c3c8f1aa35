import CadenceTestFixtures
import Testing
@_spi(Programs) @testable import Cadence

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
        #expect(try EDIDHexText.bytes(from: Array(text.utf8)) == bytes)
    }

    @Test func colonSeparatedUppercase() throws {
        let text = hexPairs(bytes).map { $0.uppercased() }.joined(separator: ":")
        #expect(try EDIDHexText.bytes(from: Array(text.utf8)) == bytes)
    }

    @Test func textThatIsNotHexIsRejected() throws {
        #expect(try EDIDHexText.bytes(from: Array("00 ff fg".utf8)) == nil)
        #expect(try EDIDHexText.bytes(from: Array("00 ff f".utf8)) == nil)          // odd digit count
        #expect(try EDIDHexText.bytes(from: Array("monitor: 00 ff".utf8)) == nil)
        #expect(try EDIDHexText.bytes(from: Array(" \n\t:".utf8)) == nil)
        #expect(try EDIDHexText.bytes(from: []) == nil)
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

    @Test("edid-decode output: the hex section is found and the decoding after it ignored (real LG 27GL850)")
    func edidDecodeOutput() throws {
        let text = RealEDIDs.edidDecodeText(RealEDIDs.lg27GL850)
        #expect(try EDIDHexText.bytes(from: Array(text.utf8)) == RealEDIDs.lg27GL850)
        let edid = try EDID(contents: Array(text.utf8))
        #expect(edid.productName == "27GL850")
        #expect(edid.variableRefresh == VariableRefreshRange(RefreshRange(minHz: 48, maxHz: 144), source: .rangeLimits))
    }

    @Test("A whole xrandr --props listing: the connected output's EDID property (real AOC 24G2)")
    func xrandrPropsListing() throws {
        let text = RealEDIDs.xrandrPropsText(RealEDIDs.aoc24G2)
        #expect(try EDIDHexText.bytes(from: Array(text.utf8)) == RealEDIDs.aoc24G2)
        let edid = try EDID(contents: Array(text.utf8))
        #expect(edid.productName == "24G2W1G4")
        #expect(edid.variableRefresh == VariableRefreshRange(RefreshRange(minHz: 48, maxHz: 144), source: .amdVSDB))
    }

    @Test("A label with no hex under it, or prose around a dump without a label, is not an EDID")
    func labelsWithoutHex() throws {
        #expect(try EDIDHexText.bytes(from: Array("DP-1 connected\n\tEDID: \n\tvrr_capable: 1\n".utf8)) == nil)
        #expect(try EDIDHexText.bytes(from: Array("my monitor\n00 ff ff ff\n".utf8)) == nil)
    }
}

@Suite("EDID range limits in words, on real monitors")
struct RangeLimitsVerdictTests {
    @Test("Timing classes are named, and the verdict says why 0xFD was or was not taken as VRR")
    func verdicts() throws {
        let lg = try EDID(bytes: RealEDIDs.lg27GL850)
        #expect(lg.rangeLimits?.timingClassName == "range limits only")
        #expect(lg.rangeLimitsVerdict == nil, "taken: EDID 1.4, continuous frequency, range limits only")

        let aoc = try EDID(bytes: RealEDIDs.aoc24G2)
        #expect(aoc.rangeLimits?.vertical == RefreshRange(minHz: 48, maxHz: 144))
        #expect(aoc.rangeLimitsVerdict?.hasPrefix("not VRR: EDID 1.3") == true, "\(aoc.rangeLimitsVerdict ?? "nil")")

        let dell = try EDID(bytes: RealEDIDs.dellU2414H)
        #expect(dell.rangeLimits?.vertical == RefreshRange(minHz: 56, maxHz: 76))
        #expect(dell.rangeLimits?.timingClassName == "default GTF")
        #expect(dell.variableRefresh == nil)
        #expect(dell.rangeLimitsVerdict?.hasPrefix("not VRR: EDID 1.3") == true)
    }
}
