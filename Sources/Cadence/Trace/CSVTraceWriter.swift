/// The CSV trace: one row per callback, for spreadsheets and scripts.
///
/// Columns: `frame,timestamp,target_timestamp,present_time,delta,fps_cap,
/// effective_hz,refresh_mode`, then the game's own columns, then
/// `callback_time,glass_time,glass_source,limited_by,run_start`. Times are in
/// seconds from the run's start with nine decimals; `present_time` is
/// on-glass in simulation and the moment present returned in real time;
/// `fps_cap` is the requested rate (0 = the display's rate, `adaptive` when
/// the rate follows the game, `uncapped` when nothing paced the frame);
/// `effective_hz` the rate the link paced the frame at (0 when nothing did); `callback_time` is when the frame's callback
/// started and read input (so `present_time − callback_time` is the
/// input-to-glass latency only in simulation); `glass_time` is when the frame
/// reached the glass as well as the platform told, what the statistics
/// judge, and `glass_source` where it came from (``GlassTimeSource``:
/// `feedback` and `vblank` are measured on the platform's clock, `estimated`
/// and `inferred` are not); `limited_by` is what held the rate
/// (``RateReason/name``: `request`, `display-rate`, `even-rate`, `presents`,
/// `work`); `run_start` is the run's start itself on the loop's clock
/// (`CLOCK_MONOTONIC` in real time, the same on every row), so a frame joins
/// the kernel's, a compositor's or a system trace's events by adding it;
/// `vrr` is the furthest of variable refresh's states reached (``VRRState/name``:
/// `fixed`, `capable`, `requested`, `in-effect`; empty where the backend does
/// not judge them) and `vrr_evidence` what shows each state; `work_cpu`,
/// `pacing_cpu` and `loop_cpu` what the frame cost the loop's thread in CPU
/// time, in seconds (``FrameCPU``: its work, its pacing's waits, its whole
/// turn; empty where the backend has no CPU clock); `display_wait`, empty but
/// on a frame that waited on a display that stopped answering, how long (seconds);
/// `work_end` when the frame's work (callback and flush) ended and
/// `present_submit` when the present was called, after the pacing's wait
/// (so a frame's wall time splits into work, wait and the present's own call).
/// Columns the loop gains are appended at the end, so scripts reading
/// columns by position keep working; the game's sit where the sample's
/// `angle` always has.
final class CSVTraceWriter: TraceWriter {
    /// What every trace describes of a frame, before the game's columns.
    static let frameColumns = ["frame", "timestamp", "target_timestamp", "present_time", "delta", "fps_cap",
                               "effective_hz", "refresh_mode"]
    /// The loop's timings, after the game's columns.
    static let timingColumns = ["callback_time", "glass_time", "glass_source", "limited_by", "run_start",
                                "vrr", "vrr_evidence", "work_cpu", "pacing_cpu", "loop_cpu",
                                "display_wait", "work_end", "present_submit"]

    private let file: TextFile
    private let runStart: Nanoseconds
    private let gameColumnCount: Int

    init(file: TextFile, runStart: Nanoseconds, gameColumns: [String] = []) throws {
        self.file = file
        self.runStart = runStart
        gameColumnCount = gameColumns.count
        try file.write((Self.frameColumns + gameColumns + Self.timingColumns).joined(separator: ",") + "\n")
    }

    func write(_ r: FrameRecord, gameValues: [String]) throws {
        precondition(gameValues.count == gameColumnCount, "one value for each game column the trace was opened with")
        let fields = [
            String(r.frame), formatSeconds(r.timestamp - runStart), formatSeconds(r.targetTimestamp - runStart),
            formatSeconds(r.presentTime - runStart), formatSeconds(r.delta), fpsCapColumn(r),
            formatRate(r.rate?.hz ?? 0),
            r.refreshMode.rawValue,
        ] + gameValues + [formatSeconds(r.callbackStart - runStart), formatSeconds(r.glassTime - runStart),
                          r.glassSource.rawValue, r.rateReason.name, formatSeconds(runStart),
                          r.variableRefresh?.name ?? "", Self.evidence(r.variableRefresh)]
            + [r.cpu?.work, r.cpu?.pacing, r.cpu?.loop].map { $0.map(formatSeconds) ?? "" }
            + [r.displayWait.map(formatSeconds) ?? "", formatSeconds(r.workEnd - runStart),
               formatSeconds(r.presentSubmit - runStart)]
        try file.write(fields.joined(separator: ",") + "\n")
    }

    /// The `fps_cap` column: `uncapped` for a frame nothing paced, `adaptive`
    /// while the rate follows the game, else the preferred rate of the range
    /// asked for (0 for the display's rate).
    private func fpsCapColumn(_ r: FrameRecord) -> String {
        guard r.isPaced else { return "uncapped" }
        return r.limit == .adaptive ? "adaptive" : formatRate(r.limit.frameRateRange.preferred)
    }

    /// `capable: …; requested: …; in effect: …`, quoted where it holds a comma.
    static func evidence(_ state: VRRState?) -> String {
        guard let state else { return "" }
        let text = "capable: \(state.capableEvidence); requested: \(state.requestedEvidence); "
            + "in effect: \(state.inEffectEvidence)"
        guard text.contains(",") || text.contains("\"") else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    func finish(summary: RunSummary) throws {
        try file.close()
    }
}
