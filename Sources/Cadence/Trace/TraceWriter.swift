/// Somewhere the frames of a run are recorded as they happen.
///
/// The sample writes one record per display-link callback while it runs and
/// finishes the file at exit (also on SIGINT/SIGTERM), so a trace is always
/// complete and parseable. ``TraceFile/open(path:runStart:gameColumns:)``
/// picks the format.
@_spi(Programs) public protocol TraceWriter: AnyObject {
    /// Appends one frame, with the values of the game's own columns (as many
    /// as it named when the trace was opened, in that order).
    func write(_ record: FrameRecord, gameValues: [String]) throws
    /// Completes and closes the file; `summary` is kept where the format allows.
    func finish(summary: RunSummary) throws
}

extension TraceWriter {
    /// Appends one frame of a trace with no game columns.
    public func write(_ record: FrameRecord) throws {
        try write(record, gameValues: [])
    }
}

/// A trace file could not be opened or written.
@_spi(Programs) public struct TraceError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the path.
    public let description: String
}

/// Opens trace files by their extension.
///
/// A trace is written to a temporary file beside `path` and takes its place
/// only when finished, so an existing trace survives a run that fails to start.
@_spi(Programs) public enum TraceFile {
    /// Whether `path` names a trace format (`.csv` or `.json`): for checking a
    /// path before the run, without touching any file.
    public static func isSupported(path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".csv") || lower.hasSuffix(".json")
    }

    /// A writer for `path`: `.csv` (one row per callback) or `.json` (Chrome
    /// trace events, for Perfetto). Times are written relative to `runStart`.
    /// `gameColumns` names what the game records of each frame beside the
    /// loop's own figures (the sample's sprite `angle`). Throws at once when
    /// the path cannot be created, before any frame runs.
    public static func open(path: String, runStart: Nanoseconds, gameColumns: [String] = []) throws -> TraceWriter {
        try open(pathBytes: Array(path.utf8), runStart: runStart, gameColumns: gameColumns)
    }

    /// The same for a path given as the file system's bytes, which need not
    /// be UTF-8 (see `RawArguments`).
    public static func open(pathBytes: [UInt8], runStart: Nanoseconds, gameColumns: [String] = []) throws -> TraceWriter {
        let path = String(decoding: pathBytes, as: UTF8.self)
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") {
            return try CSVTraceWriter(file: TextFile(pathBytes: pathBytes), runStart: runStart, gameColumns: gameColumns)
        }
        if lower.hasSuffix(".json") {
            return try ChromeTraceWriter(file: TextFile(pathBytes: pathBytes), runStart: runStart, gameColumns: gameColumns)
        }
        throw TraceError(description: "\"\(path)\" must end in .csv or .json")
    }
}

/// Formats integer nanoseconds as decimal seconds with all nine digits, exactly
/// (no `Double` rounding): `183333333` → `"0.183333333"`.
func formatSeconds(_ ns: Nanoseconds) -> String {
    let sign = ns < 0 ? "-" : ""
    let magnitude = ns.magnitude
    let fraction = String(magnitude % 1_000_000_000 + 1_000_000_000).dropFirst()
    return "\(sign)\(magnitude / 1_000_000_000).\(fraction)"
}

/// A rate for a trace: whole rates without decimals (`60`), others as needed (`59.94`).
func formatRate(_ hz: Double) -> String {
    hz == hz.rounded() && abs(hz) < 1e15 ? String(Int64(hz)) : String(hz)
}
