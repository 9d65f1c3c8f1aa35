@_spi(Programs) import Cadence
import Testing
@_spi(Programs) @testable import CadenceSDL

@Suite("VRR detection: facts, sources and confidence reasons")
struct DetectionReasonTests {
    /// One FreeSync monitor on card0-DP-1, driven by `driver`.
    private func freeSyncMonitor(driver: String? = "amdgpu", edid: [UInt8]? = nil) throws -> FakeDRMTree {
        let tree = try FakeDRMTree()
        try tree.addCard(driver: driver)
        try tree.addConnector("DP-1", edid: edid ?? testEDID(name: "FS27", freeSync: (48, 144)), modes: ["2560x1440"])
        return tree
    }

    private func detect(_ tree: FakeDRMTree, videoDriver: String? = "x11", fullscreen: Bool = true,
                        environment: [String: String] = [:]) throws -> DisplayVRRReport {
        let reports = tree.detector(environment: environment).detect(
            displays: [sdlDisplay("FS27", 2560, 1440, refreshHz: 144)], videoDriver: videoDriver,
            windowFullscreen: fullscreen)
        return try #require(reports.first)
    }

    @Test("No DRM node: the EDID decides at medium confidence")
    func missingDeviceNode() throws {
        let report = try detect(try freeSyncMonitor())
        guard case .unknown(.noDRMAccess(let detail)) = report.facts.driver else {
            Issue.record("expected no DRM access, got \(report.facts.driver)")
            return
        }
        #expect(detail.hasSuffix("/dev/dri/card0: No such file or directory"))
        #expect(report.decision.refresh == .variable && report.decision.isRequested)
        #expect(report.decision.refreshSource == .edid(.amdVSDB))
        #expect(report.decision.confidence == .medium([.noDRMAccess(detail)]))
        #expect(report.decision.requestedRange.map { [$0.minimum, $0.maximum] } == [FrameRate(hz: 48), FrameRate(hz: 144)])
    }

    @Test func aDeviceNodeThatIsAPlainFile() throws {
        let tree = try freeSyncMonitor()
        try tree.addDevNode(.regularFile)
        let report = try detect(tree)
        #expect(report.facts.driver == .unknown(.noDRMAccess("\(tree.devRoot)/dri/card0 is not a character device")))
    }

    @Test("A character device that is not KMS fails the real libdrm query")
    func aDeviceNodeThatIsNotDRM() throws {
        let tree = try freeSyncMonitor()
        try tree.addDevNode(.nullDevice)
        let report = try detect(tree)
        guard case .unknown(.noDRMAccess(let detail)) = report.facts.driver else {
            Issue.record("expected no DRM access, got \(report.facts.driver)")
            return
        }
        #expect(detail.contains("is not a KMS device"))
    }

    @Test func emptyEDIDIsNoEDID() throws {
        let tree = try freeSyncMonitor(edid: [])
        let report = try detect(tree)
        #expect(report.decision.refresh == .fixed)
        guard case .unknown(let reasons) = report.decision.confidence, reasons.count == 2,
              case .noDRMAccess = reasons[0], case .noEDID(let detail) = reasons[1] else {
            Issue.record("expected unknown (no DRM access, no EDID), got \(report.decision.confidence)")
            return
        }
        #expect(detail.contains("edid is empty"))
    }

    @Test func garbageEDIDIsNoEDIDWithTheDecoderMessage() throws {
        let tree = try freeSyncMonitor(edid: Array("hello, not an EDID at all".utf8))
        let report = try detect(tree)
        guard case .unavailable(.noEDID(let detail)) = report.facts.edid else {
            Issue.record("expected no EDID, got \(report.facts.edid)")
            return
        }
        #expect(detail.contains("not an EDID"))
    }

    @Test("With NVIDIA's driver and no DRM answer, the reason is the proprietary driver")
    func proprietaryDriver() throws {
        let tree = try freeSyncMonitor(driver: "nvidia", edid: testEDID(name: "FS27"))
        let report = try detect(tree)
        #expect(report.kernelDriver == "nvidia")
        guard case .proprietaryDriver? = soleUnknownReason(report.decision.confidence) else {
            Issue.record("expected unknown (proprietary driver), got \(report.decision.confidence)")
            return
        }
        #expect(report.decision.refresh == .fixed)
    }

    @Test func nvidiaModuleWithoutDRMConnectors() throws {
        let tree = try FakeDRMTree()
        try tree.loadNVIDIAModule()
        let report = try detect(tree)
        guard case .proprietaryDriver(let detail)? = soleUnknownReason(report.decision.confidence) else {
            Issue.record("expected unknown (proprietary driver), got \(report.decision.confidence)")
            return
        }
        #expect(detail.contains("modeset"))
    }

    @Test func noConnectorsAtAll() throws {
        let report = try detect(try FakeDRMTree())
        #expect(report.connector == nil)
        guard case .noConnector(let detail)? = soleUnknownReason(report.decision.confidence) else {
            Issue.record("expected unknown (no connector), got \(report.decision.confidence)")
            return
        }
        #expect(detail.contains("no DRM connectors"))
    }

    @Test("SDL's dummy and offscreen drivers have no display behind them")
    func virtualVideoDriver() throws {
        for driver in ["dummy", "offscreen"] {
            let report = try detect(try freeSyncMonitor(), videoDriver: driver)
            #expect(report.connector == nil)
            guard case .noDisplay(let detail)? = soleUnknownReason(report.decision.confidence) else {
                Issue.record("expected unknown (no display), got \(report.decision.confidence)")
                continue
            }
            #expect(detail.contains(driver))
        }
    }

    @Test func emptyDisplayListGivesNoReports() throws {
        #expect(try freeSyncMonitor().detector().detect(displays: [], windowFullscreen: true).isEmpty)
    }

    @Test func windowedAndEnvironmentAreApplied() throws {
        let tree = try freeSyncMonitor()
        #expect(try detect(tree, fullscreen: false).decision.inactiveReasons == [.windowed])
        #expect(try detect(tree, environment: ["__GL_VRR_ALLOWED": "0"]).decision.inactiveReasons == [.disabledByEnvironment])
        #expect(try detect(tree, environment: ["__GL_VRR_ALLOWED": "1"]).decision.isRequested)
    }

    @Test func overridesReachThePolicy() throws {
        let tree = try freeSyncMonitor(edid: testEDID(name: "FS27"))
        let reports = tree.detector().detect(
            displays: [sdlDisplay("FS27", 2560, 1440, refreshHz: 144)], videoDriver: "x11", windowFullscreen: true,
            override: .on, overrideRange: FrameRate(hz: 40)...FrameRate(hz: 120))
        let decision = try #require(reports.first).decision
        #expect(decision.requestedRange.map { [$0.minimum, $0.maximum] } == [FrameRate(hz: 40), FrameRate(hz: 120)])
        #expect(decision.refreshSource == .userOverride("variable refresh on"))
    }

    // MARK: The driver's answer, from properties libdrm returned

    private let connector = DRMConnectorInfo(card: "card0", name: "DP-1", status: "connected", enabled: true,
                                             connectorID: nil, modes: [], edid: nil, edidProblem: nil)

    private func properties(id: UInt32 = 90, name: String = "DP-1", vrrCapable: Bool?, vrrEnabled: Bool? = nil)
        -> Result<[DRMConnectorProperties], VRRUnknownReason> {
        .success([
            DRMConnectorProperties(id: 80, name: "HDMI-A-1", vrrCapable: false, crtcVRREnabled: nil),
            DRMConnectorProperties(id: id, name: name, vrrCapable: vrrCapable, crtcVRREnabled: vrrEnabled),
        ])
    }

    @Test func vrrCapableAndVRREnabledAreRead() {
        let (capable, enabled) = VariableRefreshDetector.driverFacts(
            for: connector, drm: properties(vrrCapable: true, vrrEnabled: true), kernelDriver: "amdgpu")
        #expect(capable == .capable && enabled == true)
        let (notCapable, _) = VariableRefreshDetector.driverFacts(
            for: connector, drm: properties(vrrCapable: false), kernelDriver: "amdgpu")
        #expect(notCapable == .notCapable)
    }

    @Test("A missing vrr_capable means no VRR support, except on NVIDIA where it means unknown")
    func missingProperty() {
        let (open, _) = VariableRefreshDetector.driverFacts(
            for: connector, drm: properties(vrrCapable: nil), kernelDriver: "i915")
        #expect(open == .noVRRSupport(driver: "i915"))
        let (nvidia, _) = VariableRefreshDetector.driverFacts(
            for: connector, drm: properties(vrrCapable: nil), kernelDriver: "nvidia")
        guard case .unknown(.proprietaryDriver) = nvidia else {
            Issue.record("expected proprietary driver, got \(nvidia)")
            return
        }
    }

    @Test("sysfs connector_id picks the DRM connector; the name is the fallback")
    func connectorIdentity() {
        let withID = DRMConnectorInfo(card: "card0", name: "DP-1", status: "connected", enabled: true,
                                      connectorID: 80, modes: [], edid: nil, edidProblem: nil)
        let (byID, _) = VariableRefreshDetector.driverFacts(
            for: withID, drm: properties(vrrCapable: true), kernelDriver: "amdgpu")
        #expect(byID == .notCapable)                                 // object 80's answer, despite the name
        let (byName, _) = VariableRefreshDetector.driverFacts(
            for: connector, drm: properties(name: "DP-3", vrrCapable: true), kernelDriver: "amdgpu")
        guard case .unknown(.noDRMAccess(let detail)) = byName else {
            Issue.record("expected an unlisted connector, got \(byName)")
            return
        }
        #expect(detail.contains("no connector DP-1"))
    }
}
