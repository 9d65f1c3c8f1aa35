#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A text file written through C stdio: buffered, failing loudly, and never
/// half-written where the caller asked for it.
///
/// The text goes to a hidden temporary file in the same directory, which
/// ``close()`` renames over `path` (a rename within one directory is atomic).
/// So a run that fails or is killed before it finishes leaves an existing file
/// at `path` as it was, and a reader never sees a trace cut mid-line; a file
/// dropped without ``close()`` removes its temporary file.
final class TextFile {
    private var handle: UnsafeMutablePointer<FILE>?
    private let replacement: AtomicReplacement
    var path: String { replacement.path }
    /// Where the text is written until ``close()``.
    var temporaryPath: String { replacement.temporaryPath }

    /// Starts writing the file at `pathBytes` (created or replaced on
    /// ``close()``); throws with the system's reason.
    init(pathBytes: [UInt8]) throws {
        replacement = try AtomicReplacement(pathBytes: pathBytes)
        let fd = try replacement.create()
        guard let handle = fdopen(fd, "w") else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            replacement.discard()
            throw TraceError(description: "cannot write \"\(replacement.path)\": \(reason)")
        }
        self.handle = handle
    }

    deinit {
        if let handle {
            fclose(handle)
            replacement.discard()
        }
    }

    /// Appends `text`.
    func write(_ text: String) throws {
        guard let handle, fputs(text, handle) >= 0 else {
            throw TraceError(description: "writing \"\(path)\" failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Flushes, closes and moves the finished file to `path`; later writes throw.
    func close() throws {
        guard let handle else { return }
        self.handle = nil
        let flushed = fflush(handle) == 0 && (replacement.writesInPlace || fsync(fileno(handle)) == 0)
        let flushError = errno
        if fclose(handle) != 0 || !flushed {
            let reason = String(cString: strerror(flushed ? errno : flushError))
            replacement.discard()
            throw TraceError(description: "closing \"\(path)\" failed: \(reason)")
        }
        try replacement.commit()
    }
}
