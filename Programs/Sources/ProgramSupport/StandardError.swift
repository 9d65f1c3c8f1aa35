#if canImport(Glibc)
import Glibc
#endif

/// Where a program's messages and warnings go: standard error, so standard
/// output stays one clean result for scripts, each line starting with the
/// program's name. A program names its own once, as a value called like a
/// function: `let printError = StandardError(program: "display-probe")`,
/// then `printError("warning: ...")`.
public struct StandardError: Sendable {
    /// The program's name, at the start of each line.
    public let program: String

    public init(program: String) {
        self.program = program
    }

    /// Writes `"<program>: <message>"` and a newline. A raw write, safe from
    /// any thread, and at exit: the C `stderr` global is not concurrency-safe
    /// in Swift 6, and Foundation's handle may already be torn down.
    public func callAsFunction(_ message: String) {
        let line = Array("\(program): \(message)\n".utf8)
        var offset = 0
        while offset < line.count {
            let written = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
