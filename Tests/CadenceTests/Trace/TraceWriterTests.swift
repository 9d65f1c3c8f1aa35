import Foundation
import Testing
@_spi(Programs) @testable import Cadence

/// The trace writers on real files, with values worked out by hand.
@Suite("Trace writers")
struct TraceWriterTests {
    private let start: Nanoseconds = 5_000_000_000

    /// A frame at 59.94 Hz, 1.5 s into the run, shown 1 ms after its callback started.
    private func record(_ frame: Int, limit: FrameRateLimit) -> FrameRecord {
        FrameRecord(frame: frame, timestamp: start + 1_483_316_650, targetTimestamp: start + 1_500_000_000,
                    presentTime: start + 1_500_000_000, delta: 16_683_350, limit: limit, rate: FrameRate(hz: 59.94),
                    refreshMode: .fixed, callbackStart: start + 1_499_000_000, workEnd: start + 1_499_500_000,
                    presentSubmit: start + 1_499_600_000, skippedFrames: 0,
                    rateReason: limit == .adaptive ? .work(cost: 20_000_000) : .request)
    }

    private func temporaryPath(_ name: String) throws -> String {
        let dir = Self.folder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    /// The suite's folder for its traces, removed when the test process exits.
    private static let folder: URL = {
        atexit { try? FileManager.default.removeItem(at: TraceWriterTests.folder) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("cadence-trace-\(getpid())-\(UUID().uuidString)")
    }()

    @Test("CSV: the frame's columns, the game's, then the loop's timing, the run's start, VRR's states and the CPU; times exact to the nanosecond")
    func csvColumnsAndValues() throws {
        let path = try temporaryPath("t.csv")
        let writer = try TraceFile.open(path: path, runStart: start, gameColumns: ["angle"])
        var costed = record(0, limit: .cap(60))
        costed.cpu = FrameCPU(work: 1_250_000, pacing: 52_001, loop: 2_000_000, span: 16_683_350)
        try writer.write(costed, gameValues: ["0.5"])
        var judged = record(1, limit: .adaptive)
        judged.variableRefresh = VRRState(decision: VRRPolicy.decide(VRRFacts(
            edid: .fixed, driver: .noVRRSupport(driver: "vkms"), modeRate: FrameRate(hz: 60), fullscreen: false)))
        try writer.write(judged, gameValues: ["1.25"])
        try writer.finish(summary: RunSummary(frames: 2, p50Interval: nil, p99Interval: nil, lateFrames: 0, hitchRatio: 0))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let costedRow = "0,1.483316650,1.500000000,1.500000000,0.016683350,60,59.94,fixed,0.5,1.499000000,1.500000000,"
            + "feedback,request,5.000000000,,,0.001250000,0.000052001,0.002000000,,1.499500000,1.499600000"
        let judgedRow = "1,1.483316650,1.500000000,1.500000000,0.016683350,adaptive,59.94,fixed,1.25,1.499000000,1.500000000,"
            + "feedback,work,5.000000000,fixed,capable: driver vkms (no vrr_capable property) (confidence high); "
            + "requested: fixed refresh; window not fullscreen; in effect: no glass times measured,,,,,1.499500000,1.499600000"
        #expect(lines == [
            "frame,timestamp,target_timestamp,present_time,delta,fps_cap,effective_hz,refresh_mode,angle,callback_time,glass_time,glass_source,limited_by,run_start,vrr,vrr_evidence,work_cpu,pacing_cpu,loop_cpu,display_wait,work_end,present_submit",
            Substring(costedRow), Substring(judgedRow),
        ])
    }

    @Test("CSV without game columns: the loop's columns alone")
    func csvWithoutGameColumns() throws {
        let path = try temporaryPath("t.csv")
        let writer = try TraceFile.open(path: path, runStart: start)
        try writer.write(record(0, limit: .displayRate))
        try writer.finish(summary: RunSummary(frames: 1, p50Interval: nil, p99Interval: nil, lateFrames: 0, hitchRatio: 0))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "frame,timestamp,target_timestamp,present_time,delta,fps_cap,effective_hz,refresh_mode,callback_time,glass_time,glass_source,limited_by,run_start,vrr,vrr_evidence,work_cpu,pacing_cpu,loop_cpu,display_wait,work_end,present_submit")
        #expect(lines.last == "0,1.483316650,1.500000000,1.500000000,0.016683350,0,59.94,fixed,1.499000000,1.500000000,feedback,request,5.000000000,,,,,,,1.499500000,1.499600000")
    }

    @Test("A frame that waited on a display that stopped answering says how long, in the CSV and as a span in Perfetto")
    func displayWait() throws {
        var waited = record(0, limit: .displayRate)
        waited.displayWait = 10_250_000_000
        let csv = try temporaryPath("t.csv"), json = try temporaryPath("t.json")
        for path in [csv, json] {
            let writer = try TraceFile.open(path: path, runStart: start)
            try writer.write(waited)
            try writer.finish(summary: RunSummary(frames: 1, p50Interval: nil, p99Interval: nil, lateFrames: 0, hitchRatio: 0))
        }
        let row = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").last ?? ""
        #expect(row.hasSuffix(",5.000000000,,,,,,10.250000000,1.499500000,1.499600000"), "\(row)")
        let events = try String(contentsOfFile: json, encoding: .utf8)
        #expect(events.contains(#""name":"display stopped answering","ph":"X""#), "\(events)")
        #expect(events.contains(#""dur":10250000"#), "\(events)")
    }

    @Test("The file appears at its path only when finished; an old trace stays until then")
    func replacedOnlyWhenFinished() throws {
        let path = try temporaryPath("t.csv")
        try "old trace\n".write(toFile: path, atomically: true, encoding: .utf8)
        let writer = try TraceFile.open(path: path, runStart: start)
        try writer.write(record(0, limit: .cap(60)))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old trace\n")
        try writer.finish(summary: RunSummary(frames: 1, p50Interval: nil, p99Interval: nil, lateFrames: 0, hitchRatio: 0))
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("frame,"))
    }

    @Test("Chrome JSON: valid, with the game's values (escaped) on the frame's on-glass event, and the summary")
    func chromeTrace() throws {
        let path = try temporaryPath("t.json")
        let writer = try TraceFile.open(path: path, runStart: start, gameColumns: ["angle", "note"])
        try writer.write(record(0, limit: .cap(60)), gameValues: ["0.5", "say \"hi\"\\n"])
        let summary = RunSummary(frames: 1, achievedFPS: nil, p50Interval: nil, p99Interval: nil, lateFrames: 0,
                                 hitchRatio: 0)
        try writer.finish(summary: summary)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        let glass = try #require(events.first { $0["name"] as? String == "on glass" })
        #expect(glass["ts"] as? Double == 1_500_000)
        let args = try #require(glass["args"] as? [String: Any])
        #expect(args["angle"] as? String == "0.5")
        #expect(args["note"] as? String == "say \"hi\"\\n")
        #expect(args["late_us"] as? Double == 0)
        let work = try #require(events.first { $0["name"] as? String == "work" })
        #expect(work["ts"] as? Double == 1_499_000 && work["dur"] as? Double == 500)
        let other = json?["otherData"] as? [String: Any]
        #expect(other?["summary"] as? String == summary.line)
        // The run's start on the loop's clock, so `ts` joins other records: 5 s.
        #expect(other?["run_start"] as? Double == 5)
    }

    @Test("Chrome JSON: a variable refresh event at each change of state, with the evidence of each state")
    func chromeVariableRefreshEvents() throws {
        let path = try temporaryPath("t.json")
        let writer = try TraceFile.open(path: path, runStart: start)
        let facts = VRRFacts(edid: .variable(VariableRefreshRange(RefreshRange(minHz: 48, maxHz: 144), source: .amdVSDB)),
                             driver: .capable, modeRate: FrameRate(hz: 144), fullscreen: false)
        var windowed = record(0, limit: .cap(60)), again = record(1, limit: .cap(60)), fullscreen = record(2, limit: .cap(60))
        windowed.variableRefresh = VRRState(decision: VRRPolicy.decide(facts))
        again.variableRefresh = windowed.variableRefresh
        var requested = facts
        requested.fullscreen = true
        fullscreen.variableRefresh = VRRState(decision: VRRPolicy.decide(requested))
        for r in [windowed, again, fullscreen] { try writer.write(r) }
        try writer.finish(summary: RunSummary(frames: 3, p50Interval: nil, p99Interval: nil, lateFrames: 0, hitchRatio: 0))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        let changes = events.filter { $0["name"] as? String == "variable refresh" }.compactMap { $0["args"] as? [String: String] }
        #expect(changes.map { $0["state"] } == ["capable", "requested"])
        #expect(changes.first?["capable"] == "DRM vrr_capable (confidence high)")
        #expect(changes.first?["requested"] == "window not fullscreen")
        #expect(changes.last?["in_effect"] == "no glass times measured")
    }
}
