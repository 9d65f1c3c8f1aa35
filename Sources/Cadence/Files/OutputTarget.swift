#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an output named on the command line really goes, as editors and
/// `cp` see it: a symbolic link is followed to the file it names (which is
/// then replaced beside itself, the link kept), and a FIFO or a character
/// device (`/dev/null`, `/dev/full`, a terminal) is written in place, since
/// replacing it with a regular file would take it from whoever reads it.
struct OutputTarget {
    /// The path after following every link, as the file system's bytes.
    let resolved: [UInt8]
    /// Whether the target is a FIFO or a character device, written in place.
    let writesInPlace: Bool
    /// Whether it is a FIFO (opened only once a reader is there).
    let isFIFO: Bool

    /// The most links followed, as the kernel's own limit (ELOOP beyond).
    static let maximumLinks = 40

    /// Follows `path`'s links; throws on a loop. A link to a file that does
    /// not exist yet resolves to that file, which the output then creates.
    init(pathBytes path: [UInt8]) throws {
        var current = path
        var hops = 0
        while let target = Self.linkTarget(current) {
            hops += 1
            guard hops <= Self.maximumLinks else {
                throw TraceError(description: "cannot write \"\(String(decoding: path, as: UTF8.self))\": "
                                 + String(cString: strerror(ELOOP)))
            }
            if target.first == UInt8(ascii: "/") {
                current = target
            } else {
                let slash = current.lastIndex(of: UInt8(ascii: "/"))
                current = (slash.map { Array(current[...$0]) } ?? []) + target
            }
        }
        resolved = current
        var status = stat()
        let kind = Self.withCString(current) { stat($0, &status) } == 0 ? status.st_mode & S_IFMT : 0
        isFIFO = kind == S_IFIFO
        writesInPlace = isFIFO || kind == S_IFCHR
    }

    /// Opens the in-place target for writing. A FIFO nobody reads would hold
    /// the open for ever: that fails at once instead.
    func openInPlace(displayPath: String) throws -> Int32 {
        let fd = Self.withCString(resolved) { open($0, O_WRONLY | O_CLOEXEC | O_NOCTTY | (isFIFO ? O_NONBLOCK : 0)) }
        guard fd >= 0 else {
            let reason = isFIFO && errno == ENXIO ? "a FIFO no process is reading" : String(cString: strerror(errno))
            throw TraceError(description: "cannot write \"\(displayPath)\": \(reason)")
        }
        // Written blocking from here on, as any pipe is.
        if isFIFO { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        return fd
    }

    /// What the link at `path` points to; nil when it is not a link.
    private static func linkTarget(_ path: [UInt8]) -> [UInt8]? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let length = withCString(path) { readlink($0, &buffer, buffer.count) }
        guard length > 0 else { return nil }
        return buffer.prefix(length).map { UInt8(bitPattern: $0) }
    }

    private static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
