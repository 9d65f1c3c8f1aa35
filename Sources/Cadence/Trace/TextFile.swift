#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A text file written through C stdio: buffered, and failing loudly.
final class TextFile {
    private var handle: UnsafeMutablePointer<FILE>?
    let path: String

    /// Creates (or truncates) `path`; throws with the system's reason.
    init(path: String) throws {
        guard let handle = fopen(path, "w") else {
            throw TraceError(description: "cannot write \"\(path)\": \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        self.path = path
    }

    deinit { if let handle { fclose(handle) } }

    /// Appends `text`.
    func write(_ text: String) throws {
        guard let handle, fputs(text, handle) >= 0 else {
            throw TraceError(description: "writing \"\(path)\" failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Flushes and closes; later writes throw.
    func close() throws {
        guard let handle else { return }
        self.handle = nil
        if fclose(handle) != 0 {
            throw TraceError(description: "closing \"\(path)\" failed: \(String(cString: strerror(errno)))")
        }
    }
}
