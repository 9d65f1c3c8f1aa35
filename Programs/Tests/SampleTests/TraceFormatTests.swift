import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Traces written by spinning-sprite")
struct TraceFormatTests {
    @Test func csvHasTheExactHeaderAndExactValues() throws {
        let dir = try Subprocess.temporaryDirectory()
        let path = dir.appendingPathComponent("t.csv").path
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--frames", "30", "--trace", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "frame,timestamp,target_timestamp,present_time,delta,fps_cap,effective_hz,refresh_mode,angle,callback_time,glass_time,glass_source,limited_by,run_start,vrr,vrr_evidence,work_cpu,pacing_cpu,loop_cpu,display_wait,work_end,present_submit")
        #expect(lines.count == 31)
        // A simulated display that is not told of VRR judges none, has no CPU clock and no display wait: those columns stay empty.
        let fields = lines[11].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(fields.count == 22 && fields[14...19].allSatisfy(\.isEmpty), "\(fields)")
        // Its work ended, and its present was called, between its callback and the glass (present_time here).
        if fields.count == 22, let callback = Double(fields[9]), let workEnd = Double(fields[20]),
           let submit = Double(fields[21]), let shown = Double(fields[3]) {
            #expect(callback <= workEnd && workEnd <= submit && submit <= shown, "\(fields)")
        } else {
            Issue.record("no times in \(fields)")
        }
        let row = lines[11].split(separator: ",").map(String.init)   // frame 10
        #expect(row[0] == "10")
        // Target of frame 10 on a 60 Hz grid from 0 is vblank 11: 11/60 s, shown on time.
        #expect(row[2] == "0.183333333")
        #expect(row[3] == row[2])
        // One 60 Hz interval; grid instants are whole nanoseconds, so ±1 ns.
        #expect(abs(try #require(Double(row[4])) - 1.0 / 60) < 2e-9)
        #expect(row[5] == "0")
        #expect(Double(row[6]) == 60)
        #expect(row[7] == "fixed")
        // 90°/s × 11/60 s in radians.
        let angle = try #require(Double(row[8]))
        #expect(abs(angle - 0.5 * .pi * 11 / 60) < 1e-9)
        #expect(row[1].split(separator: ".").last!.count >= 9)
        // Smooth latency: with no work the callback starts the instant the
        // previous frame is on the glass (the simulated present blocks until then).
        let previous = lines[10].split(separator: ",").map(String.init)
        #expect(row[9] == previous[3])
        // The simulated display reports each frame's glass time: the present time itself.
        #expect(row[10] == row[3])
        #expect(row[11] == "feedback")
        // The display's rate was asked for: what holds the rate is the display.
        #expect(row[12] == "display-rate")
        #expect(result.stdout.contains("frames 30"))
        #expect(result.stdout.contains("; glass times measured (the platform's per-frame feedback) 30"), "\(result.stdout)")
    }

    @Test("In real time a trace's run_start is on CLOCK_MONOTONIC: after the sample was launched, before it ended")
    func runStartIsOnTheMonotonicClock() throws {
        func monotonicSeconds() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
        let dir = try Subprocess.temporaryDirectory()
        let csv = dir.appendingPathComponent("t.csv").path, json = dir.appendingPathComponent("t.json").path
        let before = monotonicSeconds()
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "5", "--trace", csv])
        let second = try Subprocess.run("spinning-sprite", ["--headless", "--frames", "5", "--trace", json])
        let after = monotonicSeconds()
        #expect(result.status == 0 && second.status == 0, "\(result.stderr)\(second.stderr)")
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",") }
        let column = try #require(rows.first?.firstIndex(of: "run_start"))
        let starts = Set(rows.dropFirst().map { String($0[column]) })
        #expect(starts.count == 1, "one run, one start: \(starts)")
        let start = try #require(starts.first.flatMap(Double.init))
        #expect(before < start && start < after, "\(before) < \(start) < \(after)")
        let trace = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        let jsonStart = try #require((trace?["otherData"] as? [String: Any])?["run_start"] as? Double)
        #expect(start < jsonStart && jsonStart < after)
    }

    @Test("--latency low in simulation: each frame's callback starts its work plus 0.5 ms before the glass")
    func lowLatencyInSimulation() throws {
        let dir = try Subprocess.temporaryDirectory()
        let path = dir.appendingPathComponent("t.csv").path
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--fps", "60", "--work-schedule",
                                                            "0:2", "--latency", "low", "--frames", "60", "--trace", path])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",").map(String.init) }
        #expect(rows.count == 60)
        // From the second frame (the first has nothing to predict from): 2 ms of
        // work plus the smallest safety, 0.5 ms, exactly; every frame on its target.
        for row in rows.dropFirst() {
            let (present, callback) = (try #require(Double(row[3])), try #require(Double(row[9])))
            #expect(abs(present - callback - 0.002_5) < 2e-9, "frame \(row[0])")
            #expect(row[3] == row[2])
        }
        // The summary's median is the histogram's 1 µs bucket around 2.5 ms.
        #expect(result.stdout.contains(", latency p50 2.50"))
    }

    @Test func chromeTraceParsesWithWorkWaitAndCounters() throws {
        let dir = try Subprocess.temporaryDirectory()
        let path = dir.appendingPathComponent("t.json").path
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "vrr:48-144", "--fullscreen", "--fps", "78",
                                                            "--work-schedule", "0:3", "--frames", "40", "--trace", path])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.filter { $0["name"] as? String == "work" }.count == 40)
        #expect(slices.filter { $0["name"] as? String == "wait" }.count == 40)
        let work = try #require(slices.first { $0["name"] as? String == "work" })
        #expect(abs((work["dur"] as? Double ?? 0) - 3_000) < 1)
        let counters = Set(events.filter { $0["ph"] as? String == "C" }.compactMap { $0["name"] as? String })
        #expect(counters.contains("effective_hz"))
        #expect(counters.contains("fps_cap"))
        // One input-read instant per frame, at the work slice's start.
        let reads = events.filter { $0["name"] as? String == "input read" }
        #expect(reads.count == 40)
        #expect(reads.first?["ts"] as? Double == work["ts"] as? Double)
    }
}
