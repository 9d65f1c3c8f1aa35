@_spi(Programs) import Cadence
import Foundation
@_spi(Programs) @testable import CadenceSDL

/// A fake `/sys` and `/dev` in a fresh temporary directory, built file by file
/// the way the kernel lays them out, for ``VariableRefreshDetector`` to read.
final class FakeDRMTree {
    /// The temporary directory holding both trees.
    let root: URL
    /// What stands in for `/sys`.
    var sysfsRoot: String { root.appendingPathComponent("sys").path }
    /// What stands in for `/dev`.
    var devRoot: String { root.appendingPathComponent("dev").path }

    private var classDRM: URL { root.appendingPathComponent("sys/class/drm") }
    private let files = FileManager.default

    init() throws {
        root = files.temporaryDirectory.appendingPathComponent("cadence-drm-\(UUID().uuidString)")
        try files.createDirectory(at: root.appendingPathComponent("sys/class/drm"), withIntermediateDirectories: true)
        try files.createDirectory(at: root.appendingPathComponent("dev/dri"), withIntermediateDirectories: true)
    }

    deinit {
        try? files.removeItem(at: root)
    }

    /// `class/drm/cardN`, with `device/driver` linking to the driver as sysfs does.
    func addCard(_ card: String = "card0", driver: String? = "amdgpu") throws {
        let device = classDRM.appendingPathComponent("\(card)/device")
        try files.createDirectory(at: device, withIntermediateDirectories: true)
        if let driver {
            try files.createSymbolicLink(atPath: device.appendingPathComponent("driver").path,
                                         withDestinationPath: "../../../bus/pci/drivers/\(driver)")
        }
    }

    /// `class/drm/cardN-NAME` with its attributes; nil attributes are left out.
    func addConnector(_ name: String, card: String = "card0", status: String? = "connected",
                      enabled: String? = "enabled", edid: [UInt8]? = [], modes: [String] = [],
                      connectorID: String? = nil) throws {
        let dir = classDRM.appendingPathComponent("\(card)-\(name)")
        try files.createDirectory(at: dir, withIntermediateDirectories: true)
        if let status { try write(status + "\n", to: dir.appendingPathComponent("status")) }
        if let enabled { try write(enabled + "\n", to: dir.appendingPathComponent("enabled")) }
        if let edid { try Data(edid).write(to: dir.appendingPathComponent("edid")) }
        try write(modes.map { $0 + "\n" }.joined(), to: dir.appendingPathComponent("modes"))
        if let connectorID { try write(connectorID + "\n", to: dir.appendingPathComponent("connector_id")) }
    }

    /// Writes raw bytes at a path below the sysfs root, replacing what is there.
    func writeSysfs(_ relativePath: String, _ bytes: [UInt8]) throws {
        let url = root.appendingPathComponent("sys/" + relativePath)
        try? files.removeItem(at: url)
        try Data(bytes).write(to: url)
    }

    /// Path of something below the sysfs root, for planting odd files.
    func sysfsPath(_ relativePath: String) -> String {
        root.appendingPathComponent("sys/" + relativePath).path
    }

    /// What `/dev/dri/cardN` is in this tree.
    enum DevNode {
        /// A plain file: not a device at all.
        case regularFile
        /// A link to `/dev/null`: a real character device that is not DRM.
        case nullDevice
    }

    /// Creates `dev/dri/<card>`; without a call it is missing.
    func addDevNode(_ kind: DevNode, card: String = "card0") throws {
        let path = root.appendingPathComponent("dev/dri/\(card)").path
        switch kind {
        case .regularFile: try write("", to: URL(fileURLWithPath: path))
        case .nullDevice: try files.createSymbolicLink(atPath: path, withDestinationPath: "/dev/null")
        }
    }

    /// Marks NVIDIA's proprietary module as loaded (`/sys/module/nvidia`).
    func loadNVIDIAModule() throws {
        try files.createDirectory(at: root.appendingPathComponent("sys/module/nvidia"), withIntermediateDirectories: true)
    }

    /// A detector reading this tree.
    func detector(environment: [String: String] = [:]) -> VariableRefreshDetector {
        VariableRefreshDetector(sysfsRoot: sysfsRoot, devRoot: devRoot, environment: environment)
    }

    private func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }
}

/// A display as SDL would report it.
func sdlDisplay(_ name: String, _ width: Int = 1920, _ height: Int = 1080, refreshHz: Int = 60,
                index: Int32 = 0) -> DisplayInfo {
    DisplayInfo(index: index, name: name, bounds: Rect(x: 0, y: 0, width: width, height: height),
                refreshHz: refreshHz, modeWidth: width, modeHeight: height)
}

/// A minimal EDID 1.4, built byte by byte: a product name descriptor and,
/// optionally, a CTA-861 extension with an AMD FreeSync block (OUI 1A 00 00,
/// +4 version 1, +6 min Hz, +7 max Hz). Checksums are correct.
func testEDID(name: String, freeSync: (minHz: UInt8, maxHz: UInt8)? = nil) -> [UInt8] {
    var base = [UInt8](repeating: 0, count: 128)
    base[0..<8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
    base[0x12] = 1
    base[0x13] = 4
    base[0x14] = 0x80
    var text = Array(name.utf8.prefix(13))
    if text.count < 13 { text.append(0x0A) }
    while text.count < 13 { text.append(0x20) }
    base[54..<72] = ([0, 0, 0, 0xFC, 0] + text)[...]
    var blocks = [base]
    if let freeSync {
        var cta = [UInt8](repeating: 0, count: 128)
        let amd: [UInt8] = [3 << 5 | 8, 0x1A, 0x00, 0x00, 0x01, 0x01, freeSync.minHz, freeSync.maxHz, 0x00]
        cta[0..<4] = [0x02, 0x03, UInt8(4 + amd.count), 0x00]
        cta[4..<4 + amd.count] = amd[...]
        blocks.append(cta)
        blocks[0][0x7E] = 1
    }
    return blocks.flatMap { block in
        var block = block
        block[127] = 0 &- block[0..<127].reduce(0, &+)
        return block
    }
}

/// The one reason of an `.unknown` confidence; nil for any other confidence or count.
func soleUnknownReason(_ confidence: VRRConfidence) -> VRRUnknownReason? {
    guard case .unknown(let reasons) = confidence, reasons.count == 1 else { return nil }
    return reasons[0]
}
