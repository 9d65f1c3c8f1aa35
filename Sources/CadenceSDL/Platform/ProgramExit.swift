#if canImport(Glibc)
import Glibc
#endif

/// The program's own name for its messages, and the end a watching thread
/// gives it where SDL may never return: nothing of Swift's runtime that could
/// wait on the stuck thread, just stdio's flush, one `write` and `_exit`.
enum ProgramExit {
    /// The last path component of the program's own path (`argv[0]`).
    static var programName: String {
        let path = CommandLine.arguments.first ?? "game"
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Ends the process with exit status 1 after "program: `words`" on
    /// standard error, what the program printed before (its summary) flushed first.
    static func now(saying words: String) -> Never {
        let bytes = Array("\(programName): \(words)\n".utf8)
        fflush(nil)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        _exit(1)
    }
}
