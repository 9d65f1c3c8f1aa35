#if canImport(Glibc)
import Glibc
#endif

/// Small, defensive reads of sysfs and `/dev`: nothing here can block, trap
/// or read without bound, whatever a (possibly fake) tree contains.
enum FileReads {
    /// What went wrong reading a path, as `strerror` or a plain phrase.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// sysfs text attributes and EDIDs are far below this; anything larger is not one.
    static let sysfsLimit = 64 * 1024

    /// The contents of a regular file, up to `limit` bytes. Opened non-blocking
    /// so a FIFO planted where a file should be cannot hang the read.
    static func bytes(_ path: String, limit: Int = sysfsLimit) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(errnoFailure()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(errnoFailure()) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(Failure(description: "not a regular file")) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while result.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(errnoFailure()) }
            if count == 0 { return .success(result) }
            result += chunk[0..<count]
        }
        return .failure(Failure(description: "larger than \(limit) bytes"))
    }

    /// Standard input to its end, up to `limit` bytes: what a user pipes in
    /// (`xrandr --props | display-probe edid -`). Blocks until the writer is done.
    static func standardInput(limit: Int) -> Result<[UInt8], Failure> {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while result.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(errnoFailure()) }
            if count == 0 { return .success(result) }
            result += chunk[0..<count]
        }
        return .failure(Failure(description: "larger than \(limit) bytes"))
    }

    /// A text attribute with surrounding whitespace trimmed; nil when unreadable.
    static func text(_ path: String) -> String? {
        guard case .success(let bytes) = bytes(path) else { return nil }
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }

    /// The names in a directory, sorted; empty when it cannot be listed.
    static func directory(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The last path component a symbolic link points to (`…/drivers/amdgpu` → `amdgpu`).
    static func linkTargetName(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count) }
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.split(separator: "/").last.map(String.init)
    }

    /// Whether anything exists at `path` (following links).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// `strerror(errno)` as a failure.
    static func errnoFailure() -> Failure {
        Failure(description: String(cString: strerror(errno)))
    }
}

/// The process's environment as a dictionary, for `VariableRefreshDetector`'s default.
func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let pair = String(cString: entry)
        if let equals = pair.firstIndex(of: "=") {
            result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        pointer += 1
    }
    return result
}
