import Testing
@_spi(Programs) @testable import Cadence

@Suite("EDID variable refresh selection")
struct EDIDSelectionTests {
    /// One EDID carrying a range from every source, each distinguishable by its minimum.
    private func everySource(dropping dropped: Set<VariableRefreshSource> = []) throws -> EDID {
        var builder = EDIDBuilder()
        builder.continuousFrequency = true
        builder.descriptors = [EDIDBuilder.rangeLimits(minHz: 50, maxHz: 144)]
        if dropped.contains(.rangeLimits) { builder.descriptors = [] }
        var cta: [[UInt8]] = []
        if !dropped.contains(.amdVSDB) { cta.append(EDIDBuilder.amdVSDB(version: 1, minHz: 20, maxHz: 144)) }
        if !dropped.contains(.hdmiForumVRR) { cta.append(EDIDBuilder.hdmiForumVSDB(minHz: 30, maxHz: 144)) }
        var displayID: [[UInt8]] = []
        if !dropped.contains(.displayIDDynamicRange) {
            displayID.append(EDIDBuilder.dynamicRange(minHz: 40, maxHz: 144, revision: 0))
        }
        if !dropped.contains(.displayIDAdaptiveSync) { displayID.append(EDIDBuilder.adaptiveSync([(10, 144)])) }
        // CTA first, DisplayID second: block order must not matter, only the rule's.
        builder.extensions = [EDIDBuilder.cta(cta), EDIDBuilder.displayID(displayID)]
        return try EDID(bytes: builder.bytes())
    }

    @Test("Priority: DisplayID Adaptive-Sync, AMD, HDMI Forum, DisplayID 0x25, then 0xFD")
    func priorityOrder() throws {
        let order: [(VariableRefreshSource, Int)] = [
            (.displayIDAdaptiveSync, 10), (.amdVSDB, 20), (.hdmiForumVRR, 30),
            (.displayIDDynamicRange, 40), (.rangeLimits, 50),
        ]
        let all = try everySource()
        #expect(all.variableRefreshCandidates.map(\.source) == order.map(\.0))
        var dropped: Set<VariableRefreshSource> = []
        for (source, minHz) in order {
            let selected = try #require(try everySource(dropping: dropped).variableRefresh)
            #expect(selected.source == source)
            #expect(selected.range == RefreshRange(minHz: minHz, maxHz: 144))
            dropped.insert(source)
        }
        #expect(try everySource(dropping: dropped).variableRefresh == nil)
    }

    @Test("An invalid candidate falls through to the next source")
    func invalidFallsThrough() throws {
        var builder = EDIDBuilder()
        builder.extensions = [
            EDIDBuilder.displayID([EDIDBuilder.adaptiveSync([(48, 1024)])]),   // max > 1023
            EDIDBuilder.cta([
                EDIDBuilder.amdVSDB(version: 1, minHz: 0, maxHz: 144),          // min < 1
                EDIDBuilder.hdmiForumVSDB(minHz: 50, maxHz: 60),                // 10 Hz wide
                EDIDBuilder.amdVSDB(version: 1, minHz: 90, maxHz: 60),          // min > max
            ]),
            EDIDBuilder.displayID([EDIDBuilder.dynamicRange(minHz: 40, maxHz: 75, revision: 0)]),
        ]
        let edid = try EDID(bytes: builder.bytes())
        #expect(edid.variableRefreshCandidates.count == 5)
        #expect(edid.variableRefresh == VariableRefreshRange(RefreshRange(minHz: 40, maxHz: 75), source: .displayIDDynamicRange))
    }

    @Test("Within one source, a later valid block is used when the first is invalid")
    func laterBlockOfTheSameSource() throws {
        var builder = EDIDBuilder()
        builder.extensions = [EDIDBuilder.cta([
            EDIDBuilder.amdVSDB(version: 1, minHz: 0, maxHz: 0),
            EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 100),
        ])]
        #expect(try EDID(bytes: builder.bytes()).variableRefresh?.range == RefreshRange(minHz: 48, maxHz: 100))
    }

    @Test("0xFD counts only for EDID 1.4 with continuous frequency and class 0x01")
    func rangeLimitsConditions() throws {
        let cases: [(revision: UInt8, continuous: Bool, timingClass: UInt8, counts: Bool)] = [
            (4, true, 0x01, true),
            (3, true, 0x01, false),
            (4, false, 0x01, false),
            (4, true, 0x00, false),
            (4, true, 0x02, false),
            (4, true, 0x04, false),
        ]
        for c in cases {
            var builder = EDIDBuilder()
            builder.revision = c.revision
            builder.continuousFrequency = c.continuous
            builder.descriptors = [EDIDBuilder.rangeLimits(minHz: 48, maxHz: 144, timingClass: c.timingClass)]
            let edid = try EDID(bytes: builder.bytes())
            #expect(edid.rangeLimits?.vertical == RefreshRange(minHz: 48, maxHz: 144))
            #expect((edid.variableRefresh?.source == .rangeLimits) == c.counts, "\(c)")
        }
    }

    @Test func rangeLimitsAboveTwoHundredFiftyFiveHzAsVariableRefresh() throws {
        var builder = EDIDBuilder()
        builder.continuousFrequency = true
        builder.descriptors = [EDIDBuilder.rangeLimits(minHz: 48, maxHz: 105, flags: 0b10)]
        #expect(try EDID(bytes: builder.bytes()).variableRefresh
            == VariableRefreshRange(RefreshRange(minHz: 48, maxHz: 360), source: .rangeLimits))
    }

    @Test("Valid: min ≥ 1, max ≤ 1023, max − min > 10")
    func validityBoundaries() {
        #expect(RefreshRange(minHz: 1, maxHz: 12).isValidVariableRefresh)
        #expect(!RefreshRange(minHz: 1, maxHz: 11).isValidVariableRefresh)
        #expect(!RefreshRange(minHz: 0, maxHz: 144).isValidVariableRefresh)
        #expect(RefreshRange(minHz: 48, maxHz: 1023).isValidVariableRefresh)
        #expect(!RefreshRange(minHz: 48, maxHz: 1024).isValidVariableRefresh)
        #expect(!RefreshRange(minHz: 144, maxHz: 48).isValidVariableRefresh)
    }
}
