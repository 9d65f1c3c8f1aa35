import Testing
@_spi(Programs) @testable import Cadence

@Suite("EDID CTA-861 extension")
struct EDIDCTATests {
    private func decode(_ dataBlocks: [[UInt8]], dtdOffset: UInt8? = nil) throws -> EDID {
        var builder = EDIDBuilder()
        builder.extensions = [EDIDBuilder.cta(dataBlocks, dtdOffset: dtdOffset)]
        return try EDID(bytes: builder.bytes())
    }

    private func range(_ minHz: Int, _ maxHz: Int, _ source: VariableRefreshSource) -> VariableRefreshRange {
        VariableRefreshRange(RefreshRange(minHz: minHz, maxHz: maxHz), source: source)
    }

    @Test func amdFreeSyncBlock() throws {
        let edid = try decode([EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)])
        #expect(edid.variableRefresh == range(48, 144, .amdVSDB))
    }

    @Test func amdVersion2KeepsTheEightBitMaximum() throws {
        // Bytes +14/+15 exist here but only version 3 and later define them.
        var block = EDIDBuilder.amdVSDB(version: 3, minHz: 48, maxHz: 360, legacyMax: 240)
        block[4] = 2
        #expect(try decode([block]).variableRefresh == range(48, 240, .amdVSDB))
    }

    @Test("AMD version 3 and later: max = ((b[15] & 3) << 8) | b[14]")
    func amdVersion3TenBitMaximum() throws {
        let edid = try decode([EDIDBuilder.amdVSDB(version: 3, minHz: 48, maxHz: 360, legacyMax: 240)])
        #expect(edid.variableRefresh == range(48, 360, .amdVSDB))
        var block = EDIDBuilder.amdVSDB(version: 4, minHz: 30, maxHz: 0x1F0, legacyMax: 0xF0)
        block[15] |= 0xFC                                        // only bits 1–0 of +15 count
        #expect(try decode([block]).variableRefresh == range(30, 0x1F0, .amdVSDB))
    }

    @Test func amdVersion3CutShortKeepsTheLegacyMaximum() throws {
        let full = EDIDBuilder.amdVSDB(version: 3, minHz: 48, maxHz: 360, legacyMax: 240)
        let short = [UInt8(3 << 5 | 13)] + full[1...13]          // ends before +14
        #expect(try decode([short]).variableRefresh == range(48, 240, .amdVSDB))
    }

    @Test func amdBlockWithoutItsRangeBytesGivesNothing() throws {
        let short = EDIDBuilder.dataBlock(tag: 3, [0x1A, 0x00, 0x00, 0x01, 0x01, 48])   // no +7
        #expect(try decode([short]).variableRefreshCandidates.isEmpty)
    }

    @Test func hdmiForumVSDB() throws {
        #expect(try decode([EDIDBuilder.hdmiForumVSDB(minHz: 40, maxHz: 120)]).variableRefresh
            == range(40, 120, .hdmiForumVRR))
    }

    @Test("HDMI Forum VRRmax takes bits 9–8 from +9 bits 7–6")
    func hdmiForumTenBitMaximum() throws {
        #expect(try decode([EDIDBuilder.hdmiForumVSDB(minHz: 48, maxHz: 600)]).variableRefresh
            == range(48, 600, .hdmiForumVRR))
    }

    @Test("The HF-SCDB (extended tag 7, code 0x79) carries VRR at the same offsets")
    func hdmiForumSinkCapabilityBlock() throws {
        #expect(try decode([EDIDBuilder.hdmiForumSCDB(minHz: 24, maxHz: 144)]).variableRefresh
            == range(24, 144, .hdmiForumVRR))
    }

    @Test func hdmiForumWithoutVRRIsNotVariable() throws {
        let edid = try decode([EDIDBuilder.hdmiForumVSDB(minHz: 0, maxHz: 0)])
        #expect(edid.variableRefreshCandidates == [range(0, 0, .hdmiForumVRR)])
        #expect(edid.variableRefresh == nil)
    }

    @Test func otherVendorBlocksAreIgnored() throws {
        let hdmi14 = EDIDBuilder.dataBlock(tag: 3, [0x03, 0x0C, 0x00, 0x10, 0x00, 0x30, 0x90, 0x00, 0x00, 0x28, 0x78])
        let audio = EDIDBuilder.dataBlock(tag: 1, [0x09, 0x07, 0x07])
        #expect(try decode([audio, hdmi14]).variableRefreshCandidates.isEmpty)
    }

    @Test func blocksAfterOtherBlocksAreFound() throws {
        let video = EDIDBuilder.dataBlock(tag: 2, [0x10, 0x1F, 0x05, 0x14, 0x04, 0x13])
        let audio = EDIDBuilder.dataBlock(tag: 1, [0x09, 0x07, 0x07])
        let edid = try decode([video, audio, EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 75)])
        #expect(edid.variableRefresh == range(48, 75, .amdVSDB))
    }

    @Test("Data blocks end at the DTD offset in byte 2")
    func blocksPastTheDTDOffsetAreNotRead() throws {
        let amd = EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)
        #expect(try decode([amd], dtdOffset: 4).variableRefreshCandidates.isEmpty)
        #expect(try decode([amd], dtdOffset: 0).variableRefreshCandidates.isEmpty)
        #expect(try decode([amd], dtdOffset: 2).variableRefreshCandidates.isEmpty)
    }

    @Test func aBlockRunningPastTheDTDOffsetIsReadOnlyAsFarAsItGoes() throws {
        let amd = EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)
        // The offset cuts the block after +6: the maximum is missing.
        #expect(try decode([amd], dtdOffset: 4 + 7).variableRefreshCandidates.isEmpty)
        #expect(try decode([amd], dtdOffset: 4 + 8).variableRefresh == range(48, 144, .amdVSDB))
    }

    @Test func aDTDOffsetPastTheBlockIsClamped() throws {
        let edid = try decode([EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)], dtdOffset: 0xFF)
        #expect(edid.variableRefresh == range(48, 144, .amdVSDB))
    }
}
