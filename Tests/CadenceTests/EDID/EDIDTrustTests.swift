import CadenceTestFixtures
import Testing
@_spi(Programs) @testable import Cadence

/// Bytes that start like an EDID but cannot be believed are never VRR, and a
/// mistyped hex dump is an error rather than a shorter EDID.
@Suite("EDIDs that cannot be trusted")
struct EDIDTrustTests {
    /// A 1.4 EDID with a DisplayID dynamic range of 39–491 Hz, checksums right.
    private func dynamicRangeEDID() -> EDIDBuilder {
        var builder = EDIDBuilder()
        builder.extensions = [EDIDBuilder.displayID([EDIDBuilder.dynamicRange(minHz: 39, maxHz: 491, revision: 1)])]
        return builder
    }

    @Test("The same blocks with a version byte other than 1 are not trustworthy and not VRR", arguments: [0, 2, 7, 255] as [UInt8])
    func wrongVersion(version: UInt8) throws {
        #expect(try EDID(bytes: dynamicRangeEDID().bytes()).variableRefresh?.range == RefreshRange(minHz: 39, maxHz: 491))
        var builder = dynamicRangeEDID()
        builder.version = version
        let edid = try EDID(bytes: builder.bytes())
        #expect(edid.variableRefresh == nil)
        #expect(edid.untrustworthyReason?.contains("version \(version)") == true, "\(edid.untrustworthyReason ?? "nil")")
    }

    @Test("Every block's checksum wrong: not trustworthy and not VRR; one slip alone is still trusted")
    func mostChecksumsWrong() throws {
        var bytes = dynamicRangeEDID().bytes()
        bytes[127] &+= 1
        #expect(try EDID(bytes: bytes).variableRefresh != nil, "one bad checksum of two: a real monitor's slip")
        bytes[255] &+= 1
        let edid = try EDID(bytes: bytes)
        #expect(edid.variableRefresh == nil)
        #expect(edid.untrustworthyReason == "2 of its 2 blocks fail their checksums")
    }

    @Test("A valid header followed by random bytes is never VRR (1000 seeded cases)")
    func headerThenGarbage() throws {
        var generator = SeededGenerator(seed: 0xED1D)
        for seed in 0..<1_000 {
            let blocks = Int.random(in: 1...8, using: &generator)
            var bytes = EDID.header + (8..<(blocks * 128)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Half the cases keep version 1, so the checksum rule is what must catch them.
            if seed % 2 == 0 { bytes[0x12] = 1 }
            let edid = try EDID(bytes: bytes)
            let announced = min(edid.announcedExtensionCount, blocks - 1)
            // Random blocks sum to 0 one time in 256: with two or more blocks almost all fail.
            if announced >= 1 || edid.version != 1 {
                #expect(edid.variableRefresh == nil, "seed \(seed): \(edid.variableRefresh!) from garbage")
            }
        }
    }

    @Test("EDID version 2 with a valid 48–144 range limits: the reason names the version")
    func versionTwoReason() throws {
        var builder = EDIDBuilder()
        builder.version = 2
        builder.continuousFrequency = true
        builder.descriptors = [EDIDBuilder.rangeLimits(minHz: 48, maxHz: 144)]
        let edid = try EDID(bytes: builder.bytes())
        #expect(edid.variableRefresh == nil)
        let verdict = try #require(edid.rangeLimitsVerdict)
        #expect(verdict.contains("version 2.4"), "\(verdict)")
        #expect(!verdict.contains("not a valid variable refresh range"))
    }

    @Test("A one-digit typo inside an edid-decode hex block is an error, not a shorter EDID (real LG 27GL850)",
          arguments: [(line: 10, typo: "drop"), (line: 12, typo: "g"), (line: 3, typo: "drop")])
    func brokenHexBlock(line: Int, typo: String) throws {
        var lines = RealEDIDs.edidDecodeText(RealEDIDs.lg27GL850).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        // Line 1 is the label, line 2 blank, lines 3–10 block 0, 11 blank, 12–19 block 1.
        let index = line - 1
        var text = lines[index]
        if typo == "drop" { text.remove(at: text.index(text.startIndex, offsetBy: 4)) } else {
            text.replaceSubrange(text.index(text.startIndex, offsetBy: 3)...text.index(text.startIndex, offsetBy: 3), with: typo)
        }
        lines[index] = text
        let broken = Array(lines.joined(separator: "\n").utf8)
        #expect(throws: EDIDError.brokenHexLine(line: line)) { try EDID(contents: broken) }
    }
}
