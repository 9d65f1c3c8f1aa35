@_spi(Programs) import Cadence
import Testing
@_spi(Programs) @testable import CadenceSDL

@Suite("VRR detection: display to connector matching")
struct DetectionMatchingTests {
    /// Two monitors: ALPHA on DP-1 (1440p, FreeSync) and BETA on HDMI-A-1 (1080p).
    private func twoMonitors() throws -> FakeDRMTree {
        let tree = try FakeDRMTree()
        try tree.addCard()
        try tree.addConnector("DP-1", edid: testEDID(name: "ALPHA", freeSync: (48, 144)), modes: ["2560x1440", "1920x1080"])
        try tree.addConnector("HDMI-A-1", edid: testEDID(name: "BETA"), modes: ["1920x1080", "1280x720"])
        try tree.addConnector("DP-2", status: "disconnected", enabled: "disabled")
        return tree
    }

    private func detectOne(_ tree: FakeDRMTree, _ display: DisplayInfo) throws -> DisplayVRRReport {
        let reports = tree.detector().detect(displays: [display], windowFullscreen: true)
        return try #require(reports.first)
    }

    @Test("SDL's display name matches the EDID product name first")
    func productNameRule() throws {
        let tree = try twoMonitors()
        let report = try detectOne(tree, sdlDisplay("BETA", 2560, 1440))   // the mode would say ALPHA
        #expect(report.connector?.sysfsName == "card0-HDMI-A-1")
        #expect(report.matchRule == .productName)
        #expect(report.kernelDriver == "amdgpu")
        #expect(report.facts.edid == .fixed)
    }

    @Test("Without a name match, the mode size matches a connector's preferred mode")
    func modeSizeRule() throws {
        let tree = try twoMonitors()
        let report = try detectOne(tree, sdlDisplay("0", 2560, 1440))
        #expect(report.connector?.sysfsName == "card0-DP-1")
        #expect(report.matchRule == .modeSize)
        #expect(report.facts.edid == .variable(VariableRefreshRange(RefreshRange(minHz: 48, maxHz: 144), source: .amdVSDB)))
    }

    @Test("A single connected, enabled connector matches whatever SDL calls the display")
    func onlyConnectedRule() throws {
        let tree = try FakeDRMTree()
        try tree.addCard()
        try tree.addConnector("eDP-1", edid: testEDID(name: "PANEL"), modes: ["2880x1800"])
        try tree.addConnector("DP-1", status: "disconnected", enabled: "disabled")
        try tree.addConnector("DP-2", status: "connected", enabled: "disabled", edid: testEDID(name: "OFF"), modes: ["1920x1080"])
        let report = try detectOne(tree, sdlDisplay("Built-in", 1920, 1080))
        #expect(report.connector?.sysfsName == "card0-eDP-1")
        #expect(report.matchRule == .onlyConnectedConnector)
    }

    @Test("Identical twins are not guessed apart")
    func ambiguousMatchIsUnknown() throws {
        let tree = try FakeDRMTree()
        try tree.addCard()
        try tree.addConnector("DP-1", edid: testEDID(name: "TWIN", freeSync: (48, 144)), modes: ["1920x1080"])
        try tree.addConnector("DP-2", edid: testEDID(name: "TWIN", freeSync: (48, 144)), modes: ["1920x1080"])
        let report = try detectOne(tree, sdlDisplay("TWIN"))
        #expect(report.connector == nil && report.matchRule == nil)
        guard case .noConnector(let detail)? = soleUnknownReason(report.decision.confidence) else {
            Issue.record("expected unknown (no connector), got \(report.decision.confidence)")
            return
        }
        #expect(detail.contains("card0-DP-1") && detail.contains("card0-DP-2"))
        #expect(report.decision.refresh == .fixed)
    }

    @Test("Twins by name are told apart by mode size")
    func nameTieBrokenByMode() throws {
        let tree = try FakeDRMTree()
        try tree.addCard()
        try tree.addConnector("DP-1", edid: testEDID(name: "TWIN"), modes: ["2560x1440"])
        try tree.addConnector("DP-2", edid: testEDID(name: "TWIN"), modes: ["1920x1080"])
        try tree.addConnector("HDMI-A-1", edid: testEDID(name: "OTHER"), modes: ["2560x1440"])
        let report = try detectOne(tree, sdlDisplay("TWIN", 2560, 1440))
        #expect(report.connector?.sysfsName == "card0-DP-1")
        #expect(report.matchRule == .modeSize)
    }

    @Test func eachDisplayGetsItsOwnReport() throws {
        let tree = try twoMonitors()
        let reports = tree.detector().detect(
            displays: [sdlDisplay("ALPHA", 2560, 1440, refreshHz: 144), sdlDisplay("BETA", index: 1)],
            windowFullscreen: true)
        #expect(reports.map(\.connector?.name) == ["DP-1", "HDMI-A-1"])
        #expect(reports.map(\.display.index) == [0, 1])
    }

    @Test func connectorListingReadsAttributesAndSkipsNonConnectors() throws {
        let tree = try twoMonitors()
        try tree.addCard("card1", driver: nil)
        try tree.writeSysfs("class/drm/version", Array("drm 1.1.0\n".utf8))
        try tree.writeSysfs("class/drm/renderD128", [])
        try tree.addConnector("Virtual-1", card: "card1", modes: ["1024x768"], connectorID: "77")
        let connectors = tree.detector().connectors()
        #expect(connectors.map(\.sysfsName) == ["card0-DP-1", "card0-DP-2", "card0-HDMI-A-1", "card1-Virtual-1"])
        let alpha = connectors[0]
        #expect(alpha.status == "connected" && alpha.enabled == true && alpha.isActive)
        #expect(alpha.edid?.productName == "ALPHA")
        #expect(alpha.preferredModeSize?.width == 2560 && alpha.preferredModeSize?.height == 1440)
        #expect(connectors[1].isActive == false && connectors[1].edid == nil)
        #expect(connectors[3].connectorID == 77)
    }

    @Test func connectorNamesAreSplitFromTheirCard() {
        #expect(SysfsDRM.splitConnector("card0-HDMI-A-1")! == ("card0", "HDMI-A-1"))
        #expect(SysfsDRM.splitConnector("card12-eDP-1")! == ("card12", "eDP-1"))
        for other in ["card0", "renderD128", "version", "card-DP-1", "cardX-DP-1", "card0-", "ttm"] {
            #expect(SysfsDRM.splitConnector(other) == nil, "\(other)")
        }
    }
}
