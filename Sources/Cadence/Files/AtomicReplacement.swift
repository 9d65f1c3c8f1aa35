#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file written under a hidden temporary name beside `path` and renamed
/// over it only when complete: an existing file at `path` is never truncated
/// or replaced by a partial one (a full disk, a crash, a signal).
///
/// The temporary name is `.<name>.<pid>.partial`, with `<name>` shortened
/// when needed so the whole stays within the 255 bytes a file name may have.
/// Creating one removes the partial files a killed earlier run (a process
/// no longer alive) left for the same `path`. While a temporary file exists
/// it is registered, so the handler of a signal that ends the process can
/// remove it with ``removeUnfinished()``.
///
/// A symbolic link is followed: the file it names is replaced, beside
/// itself. A FIFO or a character device is written in place (see
/// `OutputTarget`): nothing is renamed, and a failed write is still an error.
public final class AtomicReplacement {
    /// Where the finished file goes, for messages (invalid UTF-8 shown as U+FFFD).
    public let path: String
    /// Where it is written until ``commit()``, for messages.
    public let temporaryPath: String
    /// The directory, held open: the file lands in it even if it is renamed
    /// meanwhile, and a removed directory is an error, not a stray file.
    private let directory: Int32
    /// The file's name and the temporary one, as bytes with a closing NUL.
    private let name: [CChar]
    private let temporaryName: [CChar]
    /// Set for a FIFO or a character device, written in place.
    private let inPlace: OutputTarget?
    /// Whether the output is written in place (a FIFO, a device): nothing
    /// is renamed, and there is nothing to `fsync`.
    public var writesInPlace: Bool { inPlace != nil }

    /// The longest file name (not path) Linux file systems take, in bytes.
    static let maximumNameLength = 255

    /// Opens `path`'s directory, names the temporary file and removes stale
    /// ones of dead runs; creates nothing. Throws when the directory cannot be opened.
    public convenience init(path: String) throws {
        try self.init(pathBytes: Array(path.utf8))
    }

    /// The same for a path given as the file system's bytes, which need not
    /// be UTF-8 (see `RawArguments`).
    public init(pathBytes given: [UInt8]) throws {
        path = String(decoding: given, as: UTF8.self)
        let target = try OutputTarget(pathBytes: given)
        inPlace = target.writesInPlace ? target : nil
        let pathBytes = target.resolved
        let slash = pathBytes.lastIndex(of: UInt8(ascii: "/"))
        let directoryBytes = slash.map { Array(pathBytes[...$0]) } ?? Array(".".utf8)
        let nameBytes = slash.map { Array(pathBytes[($0 + 1)...]) } ?? pathBytes
        let suffix = Array(".\(getpid()).partial".utf8)
        let stem = Self.stem(of: nameBytes, suffixLength: suffix.count)
        name = Self.cString(nameBytes)
        temporaryName = Self.cString(stem + suffix)
        temporaryPath = String(decoding: (slash == nil ? [] : directoryBytes) + stem + suffix, as: UTF8.self)
        directory = Self.cString(directoryBytes).withUnsafeBufferPointer {
            open($0.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard directory >= 0 else {
            throw TraceError(description: "cannot write \"\(path)\": \(String(cString: strerror(errno)))")
        }
        if inPlace == nil { removeStalePartials(stem: stem) }
    }

    deinit {
        close(directory)
    }

    private static func cString(_ bytes: [UInt8]) -> [CChar] {
        bytes.map { CChar(bitPattern: $0) } + [0]
    }

    /// `.` and as much of `name` as fits beside a suffix of `suffixLength` bytes.
    private static func stem(of name: [UInt8], suffixLength: Int) -> [UInt8] {
        let room = maximumNameLength - 1 - suffixLength
        var kept = Array(name.prefix(room))
        // Cut on a character boundary: drop a UTF-8 sequence left incomplete.
        if kept.count < name.count {
            while let last = kept.last, last & 0xC0 == 0x80 { kept.removeLast() }
            if let last = kept.last, last & 0xC0 == 0xC0 { kept.removeLast() }
        }
        return [UInt8(ascii: ".")] + kept
    }

    /// Removes `<stem>.<pid>.partial` files whose process has ended.
    private func removeStalePartials(stem: [UInt8]) {
        let scan = dup(directory)
        guard scan >= 0, let dir = fdopendir(scan) else { return }
        defer { closedir(dir) }
        let prefix = stem + [UInt8(ascii: ".")], suffix = Array(".partial".utf8)
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard entryName.count > prefix.count + suffix.count, entryName.starts(with: prefix),
                  entryName.suffix(suffix.count).elementsEqual(suffix) else { continue }
            let middle = entryName.dropFirst(prefix.count).dropLast(suffix.count)
            guard let pid = pid_t(String(decoding: middle, as: UTF8.self)), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlinkat(directory, Self.cString(entryName), 0) }
        }
    }

    /// Creates (or empties) the temporary file and returns its descriptor for writing.
    public func create() throws -> Int32 {
        if let inPlace { return try inPlace.openInPlace(displayPath: path) }
        Self.register(directory, temporaryName)
        let fd = openat(directory, temporaryName, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            Self.unregister(directory, temporaryName)
            throw TraceError(description: "cannot write \"\(path)\": \(reason)")
        }
        return fd
    }

    /// Moves the finished (closed) temporary file to `path`; removes it when that fails.
    public func commit() throws {
        guard inPlace == nil else { return }
        defer { Self.unregister(directory, temporaryName) }
        if renameat(directory, temporaryName, directory, name) != 0 {
            let reason = String(cString: strerror(errno))
            unlinkat(directory, temporaryName, 0)
            throw TraceError(description: "cannot replace \"\(path)\": \(reason)")
        }
    }

    /// Removes the temporary file: the output is abandoned, `path` left as it was.
    public func discard() {
        guard inPlace == nil else { return }
        unlinkat(directory, temporaryName, 0)
        Self.unregister(directory, temporaryName)
    }

    /// Throws unless a file could be created at `path`, touching nothing: its
    /// directory exists and is writable, and `path` is neither a directory nor
    /// a read-only file. For checking an output's path before a run rather
    /// than after it.
    public static func checkCreatable(_ path: String) throws {
        try checkCreatable(pathBytes: Array(path.utf8))
    }

    /// The same for a path given as the file system's bytes.
    public static func checkCreatable(pathBytes: [UInt8]) throws {
        let file = try AtomicReplacement(pathBytes: pathBytes)
        let path = file.path
        if file.writesInPlace {
            guard faccessat(file.directory, file.name, W_OK, AT_EACCESS) == 0 else {
                throw TraceError(description: "cannot write \"\(path)\": \(String(cString: strerror(errno)))")
            }
            return
        }
        var status = stat()
        if fstatat(file.directory, file.name, &status, 0) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw TraceError(description: "\"\(path)\" is a directory; name a file in it")
        }
        if faccessat(file.directory, ".", W_OK, AT_EACCESS) != 0
            || fstatat(file.directory, file.name, &status, 0) == 0 && faccessat(file.directory, file.name, W_OK, AT_EACCESS) != 0 {
            throw TraceError(description: "cannot write \"\(path)\": \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `bytes` to `path` in one go: all of them, or `path` left as it was.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        try write(bytes, toPathBytes: Array(path.utf8))
    }

    /// The same for a path given as the file system's bytes.
    public static func write(_ bytes: [UInt8], toPathBytes pathBytes: [UInt8]) throws {
        let file = try AtomicReplacement(pathBytes: pathBytes)
        let path = file.path
        let fd = try file.create()
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += n
            }
        }
        if failure == 0, !file.writesInPlace, fsync(fd) != 0 { failure = errno }
        if Glibc.close(fd) != 0, failure == 0 { failure = errno }
        guard failure == 0 else {
            file.discard()
            throw TraceError(description: "writing \"\(path)\" failed: \(String(cString: strerror(failure)))")
        }
        try file.commit()
    }

    // MARK: The registry of unfinished files

    /// The unfinished files as (directory, name copied as a C string), in a
    /// fixed table a signal handler can read without allocating.
    nonisolated(unsafe) private static var unfinished =
        [(Int32, UnsafeMutablePointer<CChar>?)](repeating: (-1, nil), count: 16)

    private static func register(_ directory: Int32, _ name: [CChar]) {
        guard let slot = unfinished.firstIndex(where: { $0.1 == nil }) else { return }
        unfinished[slot] = (directory, name.withUnsafeBufferPointer { strdup($0.baseAddress!) })
    }

    private static func unregister(_ directory: Int32, _ name: [CChar]) {
        for slot in unfinished.indices {
            if let copy = unfinished[slot].1, unfinished[slot].0 == directory, strcmp(copy, name) == 0 {
                unfinished[slot] = (-1, nil)
                free(copy)
            }
        }
    }

    /// Removes every unfinished temporary file. Async-signal-safe (it only
    /// calls `unlinkat`), for the handler of a signal that ends the process.
    public static func removeUnfinished() {
        unfinished.withUnsafeBufferPointer { table in
            for (directory, name) in table { if let name { unlinkat(directory, name, 0) } }
        }
    }
}
