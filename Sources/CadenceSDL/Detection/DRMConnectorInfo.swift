@_spi(Programs) import Cadence

/// One DRM connector as sysfs shows it (`/sys/class/drm/card0-DP-1`): state,
/// modes and EDID. Read without any privileges.
@_spi(Programs) public struct DRMConnectorInfo: Equatable, Sendable {
    /// The card, e.g. `card0`.
    public let card: String
    /// The connector's kernel name, e.g. `DP-1`, `HDMI-A-1`, `eDP-1`.
    public let name: String
    /// The `status` attribute: `connected`, `disconnected` or `unknown`; nil when unreadable.
    public let status: String?
    /// The `enabled` attribute: whether the connector drives a CRTC; nil when unreadable.
    public let enabled: Bool?
    /// The `connector_id` attribute (newer kernels), the DRM object id.
    public let connectorID: UInt32?
    /// The `modes` attribute, e.g. `["2560x1440", "1920x1080"]`; the first is preferred.
    public let modes: [String]
    /// The decoded EDID; nil when missing or undecodable (see ``edidProblem``).
    @_spi(Programs) public let edid: EDID?
    /// Why `edid` is nil, e.g. `"empty (nothing connected, or the EDID could not be read)"`.
    public let edidProblem: String?

    /// `card0-DP-1`, the sysfs directory name.
    public var sysfsName: String { "\(card)-\(name)" }

    /// Whether a monitor is attached and in use: connected, and not disabled.
    public var isActive: Bool { status == "connected" && enabled != false }

    /// The preferred mode's size in pixels, from the first line of `modes`.
    public var preferredModeSize: (width: Int, height: Int)? {
        guard let first = modes.first else { return nil }
        let parts = first.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]),
              let height = Int(parts[1].prefix { $0.isNumber }) else { return nil }
        return (width, height)
    }
}

/// Reads the DRM part of a sysfs tree: cards, their connectors and drivers.
struct SysfsDRM {
    /// The sysfs mount point (`/sys`, or a test's fake tree).
    let root: String

    private var classDRM: String { root + "/class/drm" }

    /// Every connector of every card, in name order.
    func connectors() -> [DRMConnectorInfo] {
        FileReads.directory(classDRM).compactMap { entry in
            guard let (card, name) = Self.splitConnector(entry) else { return nil }
            return connector(card: card, name: name, path: classDRM + "/" + entry)
        }
    }

    /// The kernel driver bound to `card`, e.g. `amdgpu`, `i915`, `nvidia`.
    func driver(ofCard card: String) -> String? {
        FileReads.linkTargetName(classDRM + "/" + card + "/device/driver")
    }

    /// Whether NVIDIA's proprietary kernel module is loaded.
    var nvidiaModuleLoaded: Bool {
        FileReads.exists(root + "/module/nvidia")
    }

    /// `card0-DP-1` → (`card0`, `DP-1`); nil for `card0`, `renderD128`, `version`, ...
    static func splitConnector(_ entry: String) -> (card: String, name: String)? {
        guard entry.hasPrefix("card"), let dash = entry.firstIndex(of: "-") else { return nil }
        let card = entry[..<dash], number = card.dropFirst(4)
        let name = entry[entry.index(after: dash)...]
        guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber), !name.isEmpty
        else { return nil }
        return (String(card), String(name))
    }

    private func connector(card: String, name: String, path: String) -> DRMConnectorInfo {
        let (edid, problem) = Self.edid(at: path + "/edid")
        return DRMConnectorInfo(
            card: card, name: name,
            status: FileReads.text(path + "/status"),
            enabled: FileReads.text(path + "/enabled").flatMap { ["enabled": true, "disabled": false][$0] },
            connectorID: FileReads.text(path + "/connector_id").flatMap { UInt32($0) },
            modes: FileReads.text(path + "/modes").map { $0.split(whereSeparator: \.isNewline).map(String.init) } ?? [],
            edid: edid, edidProblem: problem)
    }

    /// Decodes the `edid` attribute; the kernel leaves it empty when there is none.
    private static func edid(at path: String) -> (EDID?, String?) {
        switch FileReads.bytes(path) {
        case .failure(let failure):
            return (nil, "\(path): \(failure)")
        case .success(let bytes) where bytes.isEmpty:
            return (nil, "\(path) is empty (nothing connected, or the EDID could not be read)")
        case .success(let bytes):
            do {
                return (try EDID(bytes: bytes), nil)
            } catch {
                return (nil, "\(path): \(error)")
            }
        }
    }
}
