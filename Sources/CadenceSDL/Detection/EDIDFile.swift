@_spi(Programs) import Cadence

/// Loads an EDID from a file a user names: binary (as sysfs and
/// `xrandr`/`get-edid` dumps hold it) or hex text (as `xrandr --props` and
/// `edid-decode` print it).
@_spi(Programs) public enum EDIDFile {
    /// Hex text of the largest possible EDID (256 blocks) fits well within this.
    static let sizeLimit = 1024 * 1024

    /// Why a file gave no EDID.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The file could not be read (missing, a directory, a FIFO, too large, no permission).
        case unreadable(path: String, reason: String)
        /// The file was read but holds no EDID.
        case notEDID(path: String, EDIDError)

        /// `"cannot read x.bin: No such file or directory"`, `"x.bin: not an EDID: …"`.
        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
            case .notEDID(let path, let error): "\(path): \(error)"
            }
        }
    }

    /// Whether `path` names standard input: `-`, or `/dev/stdin`, which
    /// (a pipe, not a regular file) the file reader would refuse.
    public static func isStandardInput(_ path: String) -> Bool {
        path == "-" || path == "/dev/stdin"
    }

    /// The decoded EDID in `path`, or on standard input (``isStandardInput(_:)``).
    /// Never blocks on special files or reads without bound.
    public static func load(_ path: String) -> Result<EDID, Failure> {
        let read = isStandardInput(path) ? FileReads.standardInput(limit: sizeLimit) : FileReads.bytes(path, limit: sizeLimit)
        let path = isStandardInput(path) ? "standard input" : path
        switch read {
        case .failure(let failure):
            return .failure(.unreadable(path: path, reason: failure.description))
        case .success(let contents):
            do {
                return .success(try EDID(contents: contents))
            } catch {
                return .failure(.notEDID(path: path, error))
            }
        }
    }
}
