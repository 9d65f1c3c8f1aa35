import Testing
@_spi(Programs) @testable import Cadence

@Suite("EDID base block")
struct EDIDBaseBlockTests {
    @Test func readsVersionNameAndExtensionCount() throws {
        var builder = EDIDBuilder()
        builder.revision = 3
        builder.descriptors = [EDIDBuilder.productName("DELL U2414H")]
        builder.extensions = [EDIDBuilder.cta([])]
        let edid = try EDID(bytes: builder.bytes())
        #expect(edid.versionString == "1.3")
        #expect(edid.productName == "DELL U2414H")
        #expect(edid.announcedExtensionCount == 1)
        #expect(edid.extensionTags == [0x02])
        #expect(edid.warnings.isEmpty)
    }

    @Test func productNameStopsAtLineFeedAndTrimsPadding() throws {
        var builder = EDIDBuilder()
        builder.descriptors = [EDIDBuilder.text(tag: 0xFC, Array("AB  \n  zzzzzz".utf8))]
        #expect(try EDID(bytes: builder.bytes()).productName == "AB")
    }

    @Test func productNameWithoutLineFeedUsesAllThirteenBytes() throws {
        var builder = EDIDBuilder()
        builder.descriptors = [EDIDBuilder.productName("ABCDEFGHIJKLM")]
        #expect(try EDID(bytes: builder.bytes()).productName == "ABCDEFGHIJKLM")
    }

    @Test func nonASCIINameBytesBecomeQuestionMarks() throws {
        var builder = EDIDBuilder()
        builder.descriptors = [EDIDBuilder.text(tag: 0xFC, [0x41, 0xC3, 0x01, 0x42])]
        #expect(try EDID(bytes: builder.bytes()).productName == "A??B")
    }

    @Test func blankOrMissingNameIsNil() throws {
        var builder = EDIDBuilder()
        #expect(try EDID(bytes: builder.bytes()).productName == nil)
        builder.descriptors = [EDIDBuilder.productName("   ")]
        #expect(try EDID(bytes: builder.bytes()).productName == nil)
    }

    @Test func aDetailedTimingIsNotReadAsADescriptor() throws {
        // A detailed timing starts with a non-zero pixel clock; its byte 3 may happen to be 0xFC.
        var timing = EDIDBuilder.productName("NOT A NAME")
        timing[0] = 0x02
        timing[1] = 0x3A
        var builder = EDIDBuilder()
        builder.descriptors = [timing, EDIDBuilder.productName("REAL")]
        #expect(try EDID(bytes: builder.bytes()).productName == "REAL")
    }

    @Test func rangeLimitsAreTheFirst0xFDWhateverTheClass() throws {
        var builder = EDIDBuilder()
        builder.revision = 3
        builder.descriptors = [
            EDIDBuilder.rangeLimits(minHz: 56, maxHz: 76, timingClass: 0x00),
            EDIDBuilder.rangeLimits(minHz: 48, maxHz: 144),
        ]
        let limits = try #require(try EDID(bytes: builder.bytes()).rangeLimits)
        #expect(limits.vertical == RefreshRange(minHz: 56, maxHz: 76))
        #expect(limits.timingClass == 0x00)
    }

    @Test("EDID 1.4 offset flags add 255 Hz: bit 1 to the maximum, bits 0+1 to both")
    func rangeOffsetFlags() throws {
        let cases: [(flags: UInt8, min: UInt8, max: UInt8, expected: RefreshRange)] = [
            (0b00, 48, 144, RefreshRange(minHz: 48, maxHz: 144)),
            (0b10, 48, 105, RefreshRange(minHz: 48, maxHz: 360)),
            (0b11, 5, 245, RefreshRange(minHz: 260, maxHz: 500)),
            (0b01, 48, 144, RefreshRange(minHz: 48, maxHz: 144)),  // bit 0 alone is reserved
            (0b1110, 48, 105, RefreshRange(minHz: 48, maxHz: 360)), // horizontal flags don't matter
        ]
        for c in cases {
            var builder = EDIDBuilder()
            builder.descriptors = [EDIDBuilder.rangeLimits(minHz: c.min, maxHz: c.max, flags: c.flags)]
            #expect(try EDID(bytes: builder.bytes()).rangeLimits?.vertical == c.expected, "flags \(c.flags)")
        }
    }

    @Test func offsetFlagsAreIgnoredBeforeEDID1_4() throws {
        var builder = EDIDBuilder()
        builder.revision = 3
        builder.descriptors = [EDIDBuilder.rangeLimits(minHz: 48, maxHz: 105, flags: 0b11)]
        #expect(try EDID(bytes: builder.bytes()).rangeLimits?.vertical == RefreshRange(minHz: 48, maxHz: 105))
    }

    @Test func badHeaderIsNotAnEDID() {
        var bytes = EDIDBuilder().bytes()
        bytes[1] = 0x00
        #expect(throws: EDIDError.badHeader(found: [0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0])) {
            try EDID(bytes: bytes)
        }
    }

    @Test func fewerThan128BytesIsNotAnEDID() {
        let bytes = Array(EDIDBuilder().bytes().prefix(127))
        #expect(throws: EDIDError.tooShort(byteCount: 127)) { try EDID(bytes: bytes) }
        #expect(throws: EDIDError.tooShort(byteCount: 0)) { try EDID(bytes: []) }
        #expect(throws: EDIDError.tooShort(byteCount: 3)) { try EDID(bytes: [0x00, 0xFF, 0xFF]) }
    }

    @Test func errorMessagesSayWhatIsWrong() {
        #expect(EDIDError.tooShort(byteCount: 12).description
            == "not an EDID: 12 bytes, but an EDID's base block alone is 128 bytes")
        #expect(EDIDError.badHeader(found: [0x41, 0x42]).description
            == "not an EDID: it starts 41 42, but an EDID starts 00 FF FF FF FF FF FF 00")
    }

    @Test func checksumMismatchIsAWarningAndDecodingGoesOn() throws {
        var builder = EDIDBuilder()
        builder.breakChecksum = true
        builder.descriptors = [EDIDBuilder.productName("BROKEN")]
        let edid = try EDID(bytes: builder.bytes())
        #expect(edid.productName == "BROKEN")
        #expect(edid.warnings == [.checksumMismatch(block: 0, sum: 1)])
    }

    @Test func extensionChecksumIsCheckedToo() throws {
        var builder = EDIDBuilder()
        builder.extensions = [EDIDBuilder.cta([EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)])]
        var bytes = builder.bytes()
        bytes[255] &+= 5
        let edid = try EDID(bytes: bytes)
        #expect(edid.warnings == [.checksumMismatch(block: 1, sum: 5)])
        #expect(edid.variableRefresh?.source == .amdVSDB)
    }

    @Test func missingExtensionBlocksAreAWarning() throws {
        var builder = EDIDBuilder()
        builder.extensions = [EDIDBuilder.cta([EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)])]
        builder.announcedExtensions = 3
        let edid = try EDID(bytes: builder.bytes())
        #expect(edid.warnings.contains(.missingExtensions(declared: 3, present: 1)))
        #expect(edid.extensionTags == [0x02])
        #expect(edid.variableRefresh?.range == RefreshRange(minHz: 48, maxHz: 144))
    }

    @Test func bytesAfterTheAnnouncedBlocksAreIgnoredWithAWarning() throws {
        var builder = EDIDBuilder()
        builder.extensions = [EDIDBuilder.cta([EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)])]
        builder.announcedExtensions = 0
        let edid = try EDID(bytes: builder.bytes() + [1, 2, 3])
        #expect(edid.warnings == [.trailingBytes(count: 131)])
        #expect(edid.extensionTags.isEmpty)
        #expect(edid.variableRefresh == nil)
    }

    @Test("An HF-EEODB in the first extension overrides byte 0x7E's count")
    func extensionOverrideCount() throws {
        var builder = EDIDBuilder()
        builder.extensions = [
            EDIDBuilder.cta([EDIDBuilder.eeodb(count: 2)]),
            EDIDBuilder.cta([EDIDBuilder.amdVSDB(version: 2, minHz: 40, maxHz: 165)]),
        ]
        builder.announcedExtensions = 1
        let edid = try EDID(bytes: builder.bytes())
        #expect(edid.announcedExtensionCount == 2)
        #expect(edid.extensionTags == [0x02, 0x02])
        #expect(edid.variableRefresh == VariableRefreshRange(RefreshRange(minHz: 40, maxHz: 165), source: .amdVSDB))
        #expect(edid.warnings.isEmpty)
    }

    @Test func unknownExtensionKindsAreSkipped() throws {
        var other = [UInt8](repeating: 0x55, count: 128)
        other[0] = 0x40
        var builder = EDIDBuilder()
        builder.extensions = [other, EDIDBuilder.cta([EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)])]
        let edid = try EDID(bytes: builder.bytes())
        #expect(edid.extensionTags == [0x40, 0x02])
        #expect(edid.variableRefresh?.source == .amdVSDB)
    }
}
