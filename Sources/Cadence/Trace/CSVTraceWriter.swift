/// The CSV trace: one row per callback, for spreadsheets and scripts.
///
/// Columns (header exactly as below): times in seconds from the run's start
/// with nine decimals; `present_time` is on-glass in simulation and the moment
/// present returned in real time; `fps_cap` is the requested rate (0 = the
/// display's rate, `adaptive` when the rate follows the game); `angle` is the
/// sprite's unwrapped angle in radians; `callback_time` is when the frame's
/// callback started and read input (so `present_time − callback_time` is the
/// input-to-glass latency). New columns are appended at the end, so scripts
/// reading columns by position keep working.
final class CSVTraceWriter: TraceWriter {
    /// The header line, in column order.
    static let header = "frame,timestamp,target_timestamp,present_time,delta,fps_cap,effective_hz,refresh_mode,angle,callback_time"

    private let file: TextFile
    private let runStart: Nanoseconds

    init(file: TextFile, runStart: Nanoseconds) throws {
        self.file = file
        self.runStart = runStart
        try file.write(Self.header + "\n")
    }

    func write(_ r: FrameRecord) throws {
        let cap = r.fpsCap.map(formatRate) ?? "adaptive"
        let fields = [
            String(r.frame), formatSeconds(r.timestamp - runStart), formatSeconds(r.targetTimestamp - runStart),
            formatSeconds(r.presentTime - runStart), formatSeconds(r.delta), cap, formatRate(r.effectiveHz),
            r.refreshMode.rawValue, String(r.angle), formatSeconds(r.callbackStart - runStart),
        ]
        try file.write(fields.joined(separator: ",") + "\n")
    }

    func finish(summary: RunSummary) throws {
        try file.close()
    }
}
