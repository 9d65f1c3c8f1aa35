@_spi(Programs) import Cadence
import Foundation
import Testing
@_spi(Programs) @testable import CadenceSDL

@Suite("VRR detection: bad sysfs and /dev contents")
struct DetectionRobustnessTests {
    private func detect(_ tree: FakeDRMTree) throws -> DisplayVRRReport {
        try #require(tree.detector().detect(displays: [sdlDisplay("ODD")], videoDriver: "x11", windowFullscreen: true).first)
    }

    @Test("A FIFO where the EDID should be does not hang the read", .timeLimit(.minutes(1)))
    func fifoEDID() throws {
        let tree = try FakeDRMTree()
        try tree.addCard()
        try tree.addConnector("DP-1", status: nil, edid: nil, modes: ["1920x1080"])
        #expect(mkfifo(tree.sysfsPath("class/drm/card0-DP-1/edid"), 0o600) == 0)
        #expect(mkfifo(tree.sysfsPath("class/drm/card0-DP-1/status"), 0o600) == 0)
        let connector = try #require(tree.detector().connectors().first)
        #expect(connector.edidProblem?.contains("not a regular file") == true)
        #expect(connector.status == nil)
    }

    @Test("A FIFO or a directory as the DRM node", .timeLimit(.minutes(1)))
    func oddDeviceNodes() throws {
        let tree = try FakeDRMTree()
        try tree.addCard()
        try tree.addConnector("DP-1", edid: testEDID(name: "ODD"), modes: ["1920x1080"])
        #expect(mkfifo(tree.devRoot + "/dri/card0", 0o600) == 0)
        #expect(try detect(tree).facts.driver == .unknown(.noDRMAccess("\(tree.devRoot)/dri/card0 is not a character device")))
        try FileManager.default.removeItem(atPath: tree.devRoot + "/dri/card0")
        try FileManager.default.createDirectory(atPath: tree.devRoot + "/dri/card0", withIntermediateDirectories: false)
        #expect(try detect(tree).facts.driver == .unknown(.noDRMAccess("\(tree.devRoot)/dri/card0 is not a character device")))
    }

    @Test func oversizedAndGarbageAttributes() throws {
        let tree = try FakeDRMTree()
        try tree.addCard()
        try tree.addConnector("DP-1", status: "connected", enabled: "maybe", edid: [UInt8](repeating: 0xFF, count: 100_000),
                              modes: ["\u{1}\u{2}x", "axb"], connectorID: "not a number")
        let connector = try #require(tree.detector().connectors().first)
        #expect(connector.edidProblem?.contains("larger than") == true)
        #expect(connector.enabled == nil && connector.isActive)
        #expect(connector.connectorID == nil)
        #expect(connector.preferredModeSize == nil)
        let report = try detect(tree)
        #expect(report.matchRule == .onlyConnectedConnector)
        guard case .unavailable(.noEDID) = report.facts.edid else {
            Issue.record("expected no EDID, got \(report.facts.edid)")
            return
        }
    }

    @Test func attributesThatAreDirectoriesOrMissing() throws {
        let tree = try FakeDRMTree()
        try tree.addCard(driver: nil)
        try tree.addConnector("DP-1", status: nil, enabled: nil, edid: nil)
        try FileManager.default.createDirectory(atPath: tree.sysfsPath("class/drm/card0-DP-1/status"),
                                                withIntermediateDirectories: false)
        let connector = try #require(tree.detector().connectors().first)
        #expect(connector.status == nil && !connector.isActive)
        #expect(connector.edidProblem?.contains("No such file") == true)
        let report = try detect(tree)
        #expect(report.connector == nil)
        #expect(report.decision.confidence.level == "unknown")
    }

    @Test func danglingAndLoopingLinks() throws {
        let tree = try FakeDRMTree()
        try FileManager.default.createSymbolicLink(atPath: tree.sysfsPath("class/drm/card0-DP-1"),
                                                   withDestinationPath: "../../devices/gone")
        try FileManager.default.createSymbolicLink(atPath: tree.sysfsPath("class/drm/card1-DP-1"),
                                                   withDestinationPath: "card1-DP-1")
        let connectors = tree.detector().connectors()
        #expect(connectors.map(\.sysfsName) == ["card0-DP-1", "card1-DP-1"])
        #expect(connectors.allSatisfy { !$0.isActive && $0.edid == nil })
        #expect(try detect(tree).connector == nil)
    }

    @Test("Missing sysfs and /dev roots are simply empty")
    func missingRoots() throws {
        let detector = VariableRefreshDetector(sysfsRoot: "/nonexistent/sys", devRoot: "/nonexistent/dev", environment: [:])
        #expect(detector.connectors().isEmpty)
        let report = try #require(detector.detect(displays: [sdlDisplay("X")], windowFullscreen: false).first)
        #expect(report.decision.confidence.level == "unknown")
    }

    @Test("Random bytes in every attribute never trap", .timeLimit(.minutes(5)))
    func randomAttributes() throws {
        var state: UInt64 = 0x5EED
        func nextByte() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for round in 0..<40 {
            let tree = try FakeDRMTree()
            try tree.addCard()
            try tree.addConnector("DP-\(round)")
            for attribute in ["status", "enabled", "edid", "modes", "connector_id"] {
                let count = Int(nextByte()) * (attribute == "edid" ? 3 : 1)
                try tree.writeSysfs("class/drm/card0-DP-\(round)/\(attribute)", (0..<count).map { _ in nextByte() })
            }
            let width = Int(nextByte()) * 10
            _ = tree.detector().detect(displays: [sdlDisplay("DP", width, width)], videoDriver: "x11", windowFullscreen: true)
        }
    }
}
