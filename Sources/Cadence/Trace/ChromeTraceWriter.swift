/// The Chrome trace-event JSON trace, which opens in Perfetto (ui.perfetto.dev)
/// and `chrome://tracing`.
///
/// Per frame: a `work` slice (callback start to the end of the game's work) and
/// a `wait` slice (the presenter's wait until the present is submitted), an
/// instant `input read` event when the callback started (its `latency_us`
/// runs to the present), an instant `on glass` event when the frame was
/// shown (with the game's own columns as arguments), and counter tracks
/// `effective_hz` and `fps_cap` (0 = display rate; `adaptive` 1 while the rate
/// follows the game), and where the rate's reason changes a global instant
/// `rate limited by` event naming it (``RateReason/name``). `ts` counts
/// microseconds from the run's start; `otherData.run_start` is that start in
/// seconds on the loop's clock (`CLOCK_MONOTONIC` in real time), for joining
/// other records. The file is streamed, and ``finish(summary:)`` closes the
/// array, so a run stopped by SIGINT still leaves valid JSON.
final class ChromeTraceWriter: TraceWriter {
    private let file: TextFile
    private let runStart: Nanoseconds
    private var lastRates: (rate: FrameRate?, limit: FrameRateLimit)?
    private var lastReason: RateReason?
    /// The variable refresh state last written: an event marks each change, with its evidence then.
    private var lastVRR: String?
    private let gameColumns: [String]

    init(file: TextFile, runStart: Nanoseconds, gameColumns: [String] = []) throws {
        self.file = file
        self.runStart = runStart
        self.gameColumns = gameColumns
        try file.write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n")
        try file.write(#"{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"frame loop"}}"#)
    }

    /// Microseconds from the run's start, with nanosecond digits.
    private func micros(_ t: Nanoseconds) -> String {
        let ns = t - runStart
        let sign = ns < 0 ? "-" : ""
        let m = ns.magnitude
        return "\(sign)\(m / 1_000).\(String(m % 1_000 + 1_000).dropFirst())"
    }

    private func duration(_ from: Nanoseconds, _ to: Nanoseconds) -> String {
        let span = max(0, to - from)
        return "\(span / 1_000).\(String(span % 1_000 + 1_000).dropFirst())"
    }

    func write(_ r: FrameRecord, gameValues: [String]) throws {
        precondition(gameValues.count == gameColumns.count, "one value for each game column the trace was opened with")
        let game = zip(gameColumns, gameValues).map { ",\(JSONString.quoted($0)):\(JSONString.quoted($1))" }.joined()
        var events = [
            #"{"name":"input read","ph":"i","s":"t","pid":1,"tid":1,"ts":\#(micros(r.callbackStart)),"args":{"frame":\#(r.frame),"latency_us":\#(duration(r.callbackStart, r.glassTime))}}"#,
            #"{"name":"work","ph":"X","pid":1,"tid":1,"ts":\#(micros(r.callbackStart)),"dur":\#(duration(r.callbackStart, r.workEnd)),"args":{"frame":\#(r.frame)}}"#,
            #"{"name":"wait","ph":"X","pid":1,"tid":1,"ts":\#(micros(r.workEnd)),"dur":\#(duration(r.workEnd, r.presentSubmit)),"args":{"frame":\#(r.frame)}}"#,
            #"{"name":"on glass","ph":"i","s":"t","pid":1,"tid":1,"ts":\#(micros(r.glassTime)),"args":{"frame":\#(r.frame),"source":"\#(r.glassSource.rawValue)","late_us":\#(duration(r.targetTimestamp, r.glassTime))\#(game)}}"#,
        ]
        if lastRates?.rate != r.rate || lastRates?.limit != r.limit {
            lastRates = (r.rate, r.limit)
            let ts = micros(r.callbackStart)
            // Counters are numbers: no rate is 0 Hz, the display's rate and adaptive a cap of 0.
            let adaptive = r.limit == .adaptive
            let fps = adaptive ? 0 : r.limit.frameRateRange.preferred
            events.append(#"{"name":"effective_hz","ph":"C","pid":1,"ts":\#(ts),"args":{"hz":\#(r.rate?.hz ?? 0)}}"#)
            events.append(#"{"name":"fps_cap","ph":"C","pid":1,"ts":\#(ts),"args":{"fps":\#(fps),"adaptive":\#(adaptive ? 1 : 0)}}"#)
        }
        if let vrr = r.variableRefresh, vrr.name != lastVRR {
            lastVRR = vrr.name
            let args = [("state", vrr.name), ("capable", vrr.capableEvidence), ("requested", vrr.requestedEvidence),
                        ("in_effect", vrr.inEffectEvidence)]
                .map { "\(JSONString.quoted($0)):\(JSONString.quoted($1))" }.joined(separator: ",")
            events.append(#"{"name":"variable refresh","ph":"i","s":"g","pid":1,"tid":1,"ts":\#(micros(r.callbackStart)),"args":{\#(args)}}"#)
        }
        if let wait = r.displayWait {
            events.append(#"{"name":"display stopped answering","ph":"X","pid":1,"tid":1,"ts":\#(micros(r.presentTime - wait)),"dur":\#(wait / 1_000),"args":{"frame":\#(r.frame)}}"#)
        }
        if lastReason?.name != r.rateReason.name {
            lastReason = r.rateReason
            events.append(#"{"name":"rate limited by","ph":"i","s":"g","pid":1,"tid":1,"ts":\#(micros(r.callbackStart)),"args":{"reason":"\#(r.rateReason.name)"}}"#)
        }
        try file.write(events.map { ",\n" + $0 }.joined())
    }

    func finish(summary: RunSummary) throws {
        // The summary line holds no quotes or backslashes, so it embeds as is.
        try file.write("\n],\"otherData\":{\"summary\":\"\(summary.line)\",\"run_start\":\(formatSeconds(runStart))}}\n")
        try file.close()
    }
}
