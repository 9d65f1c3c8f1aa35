import CDRM
@_spi(Programs) import Cadence
#if canImport(Glibc)
import Glibc
#endif

/// A connector's variable-refresh properties, read through libdrm.
struct DRMConnectorProperties: Equatable {
    /// The DRM object id (sysfs `connector_id`).
    let id: UInt32
    /// The kernel name, e.g. `DP-1`, to match sysfs when it lacks `connector_id`.
    let name: String
    /// `vrr_capable`; nil when the driver has no such property.
    let vrrCapable: Bool?
    /// The driving CRTC's `VRR_ENABLED`; nil when not driven or not present.
    let crtcVRREnabled: Bool?
}

/// Read-only queries of one DRM card node (`/dev/dri/cardN`, never
/// `renderD*`, which has no connectors). Reading properties needs no DRM master,
/// so this works while the X server or compositor owns the card.
enum DRMProperties {
    /// Every connector's properties on the card at `path`, or why they cannot be read.
    static func connectors(devicePath path: String) -> Result<[DRMConnectorProperties], VRRUnknownReason> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.noDRMAccess("\(path): \(FileReads.errnoFailure())")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else {
            return .failure(.noDRMAccess("\(path) is not a character device"))
        }
        guard let resources = drmModeGetResources(fd) else {
            return .failure(.noDRMAccess("\(path) is not a KMS device (\(FileReads.errnoFailure()))"))
        }
        defer { drmModeFreeResources(resources) }
        let count = max(0, Int(resources.pointee.count_connectors))
        guard let ids = resources.pointee.connectors else { return .success([]) }
        return .success((0..<count).compactMap { connector(fd: fd, id: ids[$0]) })
    }

    private static func connector(fd: Int32, id: UInt32) -> DRMConnectorProperties? {
        // "Current": the cached state, without forcing a slow re-probe of the monitor.
        guard let connector = drmModeGetConnectorCurrent(fd, id) else { return nil }
        defer { drmModeFreeConnector(connector) }
        let typeName = drmModeGetConnectorTypeName(connector.pointee.connector_type).map { String(cString: $0) }
        let name = "\(typeName ?? "Unknown")-\(connector.pointee.connector_type_id)"
        var crtcVRREnabled: Bool?
        if connector.pointee.encoder_id != 0, let encoder = drmModeGetEncoder(fd, connector.pointee.encoder_id) {
            let crtc = encoder.pointee.crtc_id
            drmModeFreeEncoder(encoder)
            if crtc != 0 { crtcVRREnabled = property("VRR_ENABLED", fd: fd, object: crtc, type: UInt32(DRM_MODE_OBJECT_CRTC)) }
        }
        return DRMConnectorProperties(
            id: id, name: name,
            vrrCapable: property("vrr_capable", fd: fd, object: id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR)),
            crtcVRREnabled: crtcVRREnabled)
    }

    /// A boolean property of a DRM object by name; nil when the object has none.
    private static func property(_ wanted: String, fd: Int32, object: UInt32, type: UInt32) -> Bool? {
        guard let properties = drmModeObjectGetProperties(fd, object, type) else { return nil }
        defer { drmModeFreeObjectProperties(properties) }
        for index in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, properties.pointee.props[index]) else { continue }
            let name = withUnsafeBytes(of: property.pointee.name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            drmModeFreeProperty(property)
            if name == wanted { return properties.pointee.prop_values[index] != 0 }
        }
        return nil
    }
}
