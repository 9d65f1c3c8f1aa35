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
    let path: String
    /// Where the text is written until ``close()``.
    let temporaryPath: String

    /// Starts writing `path` (created or replaced on ``close()``); throws with the system's reason.
    init(path: String) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporaryPath = "\(directory).\(name).\(getpid()).partial"
        guard let handle = fopen(temporaryPath, "w") else {
            throw TraceError(description: "cannot write \"\(path)\": \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        self.path = path
    }

    deinit {
        if let handle {
            fclose(handle)
            unlink(temporaryPath)
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
        if fclose(handle) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw TraceError(description: "closing \"\(path)\" failed: \(reason)")
        }
        if rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw TraceError(description: "cannot replace \"\(path)\": \(reason)")
        }
    }
}
