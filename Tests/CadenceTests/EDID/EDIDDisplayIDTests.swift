import Testing
@_spi(Programs) @testable import Cadence

@Suite("EDID DisplayID extension")
struct EDIDDisplayIDTests {
    private func decode(_ dataBlocks: [[UInt8]], sectionLength: UInt8? = nil) throws -> EDID {
        var builder = EDIDBuilder()
        builder.extensions = [EDIDBuilder.displayID(dataBlocks, sectionLength: sectionLength)]
        return try EDID(bytes: builder.bytes())
    }

    private func range(_ minHz: Int, _ maxHz: Int, _ source: VariableRefreshSource) -> VariableRefreshRange {
        VariableRefreshRange(RefreshRange(minHz: minHz, maxHz: maxHz), source: source)
    }

    @Test func adaptiveSyncBlock() throws {
        let edid = try decode([EDIDBuilder.adaptiveSync([(60, 240)])])
        #expect(edid.variableRefresh == range(60, 240, .displayIDAdaptiveSync))
        #expect(edid.extensionTags == [0x70])
    }

    @Test("Adaptive-Sync max = 1 + d[3] + ((d[4] & 3) << 8)")
    func adaptiveSyncTenBitMaximum() throws {
        #expect(try decode([EDIDBuilder.adaptiveSync([(48, 500)])]).variableRefresh
            == range(48, 500, .displayIDAdaptiveSync))
        var block = EDIDBuilder.adaptiveSync([(48, 500)])
        block[3 + 4] |= 0xFC                                     // only bits 1–0 of d[4] count
        #expect(try decode([block]).variableRefresh == range(48, 500, .displayIDAdaptiveSync))
    }

    @Test("Only the first Adaptive-Sync descriptor counts; their size comes from the revision")
    func firstDescriptorWithRevisionSize() throws {
        for revision: UInt8 in [0x00, 0x10, 0x30, 0x70] {
            let block = EDIDBuilder.adaptiveSync([(40, 165), (60, 240)], revision: revision)
            #expect(try decode([block]).variableRefreshCandidates == [range(40, 165, .displayIDAdaptiveSync)],
                    "revision \(revision)")
        }
    }

    @Test func truncatedAdaptiveSyncGivesNothing() throws {
        let block: [UInt8] = [0x2B, 0x00, 4, 0x27, 0x00, 60, 0xEF]   // d[4] missing
        #expect(try decode([block]).variableRefreshCandidates.isEmpty)
    }

    @Test("Dynamic range: 8-bit max at revision 0, +11 bits 1–0 added when revision bits 2–0 are set")
    func dynamicVideoTimingRange() throws {
        #expect(try decode([EDIDBuilder.dynamicRange(minHz: 48, maxHz: 360, revision: 0)]).variableRefresh
            == range(48, 104, .displayIDDynamicRange))
        #expect(try decode([EDIDBuilder.dynamicRange(minHz: 48, maxHz: 360, revision: 1)]).variableRefresh
            == range(48, 360, .displayIDDynamicRange))
        #expect(try decode([EDIDBuilder.dynamicRange(minHz: 48, maxHz: 360, revision: 0x08)]).variableRefresh
            == range(48, 104, .displayIDDynamicRange))
    }

    @Test func truncatedDynamicRangeGivesNothing() throws {
        var block = EDIDBuilder.dynamicRange(minHz: 48, maxHz: 360, revision: 1)
        block = Array(block.prefix(11))
        block[2] = 8                                             // +11 is missing
        #expect(try decode([block]).variableRefreshCandidates.isEmpty)
    }

    @Test("A 0x81 block embeds CTA-861 data blocks, e.g. a laptop panel's FreeSync block")
    func embeddedCTABlocks() throws {
        let embedded = EDIDBuilder.ctaInDisplayID([
            EDIDBuilder.dataBlock(tag: 1, [0x09, 0x07, 0x07]),
            EDIDBuilder.amdVSDB(version: 3, minHz: 48, maxHz: 300, legacyMax: 44),
        ])
        #expect(try decode([embedded]).variableRefresh == range(48, 300, .amdVSDB))
    }

    @Test func blocksAfterOtherBlocksAreFound() throws {
        let typeVII: [UInt8] = [0x22, 0x00, 20] + [UInt8](repeating: 0x11, count: 20)
        #expect(try decode([typeVII, EDIDBuilder.adaptiveSync([(60, 240)])]).variableRefresh
            == range(60, 240, .displayIDAdaptiveSync))
    }

    @Test("Blocks end where byte 2's section length says")
    func blocksPastTheSectionAreNotRead() throws {
        #expect(try decode([EDIDBuilder.adaptiveSync([(60, 240)])], sectionLength: 0).variableRefreshCandidates.isEmpty)
        #expect(try decode([EDIDBuilder.adaptiveSync([(60, 240)])], sectionLength: 5).variableRefreshCandidates.isEmpty)
        #expect(try decode([EDIDBuilder.adaptiveSync([(60, 240)])], sectionLength: 0xFF).variableRefresh
            == range(60, 240, .displayIDAdaptiveSync))
    }
}
