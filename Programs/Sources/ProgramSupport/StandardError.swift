#if canImport(Glibc)
import Glibc
#endif

/// Writes a line to stderr, where messages and warnings go so stdout stays
/// one clean result for scripts. (A raw write: the C `stderr` global is not
/// concurrency-safe in Swift 6.)
func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    var offset = 0
    while offset < line.count {
        let written = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
