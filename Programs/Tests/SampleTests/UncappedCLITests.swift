import Foundation
import Testing

/// `--fps uncapped` on a simulated 60 Hz display, checked from the trace
/// against what nothing pacing means: each frame's work is 4 ms and nothing
/// else passes, so 250 frames a second, each target at its callback's start.
@Suite("spinning-sprite --fps uncapped")
struct UncappedCLITests {
    /// The trace's rows as columns by name.
    private func rows(_ csv: String) -> [[String: String]] {
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    @Test("Frames as fast as the work: targets at the callback, deltas the work, none late")
    func uncappedRun() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("u.csv").path
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--fps", "uncapped",
                                                            "--work-schedule", "0:4", "--duration", "1", "--trace", trace])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("frames 250, achieved 250.00 FPS"), "\(result.stdout)")
        #expect(result.stdout.contains("late 0, hitch ratio 0.0 ms/s"), "\(result.stdout)")
        let frames = rows(try String(contentsOfFile: trace, encoding: .utf8))
        #expect(frames.count == 250)
        for frame in frames {
            #expect(frame["fps_cap"] == "uncapped" && frame["refresh_mode"] == "none")
            #expect(frame["target_timestamp"] == frame["callback_time"])
        }
        for frame in frames.dropFirst() { #expect(frame["delta"] == "0.004000000") }
    }

    @Test("Leaving uncapped gives vsync back: a 30 FPS cap then paces every second vblank")
    func leavingUncapped() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("u.csv").path
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60",
                                                            "--fps-schedule", "0:uncapped,0.5:30", "--work-schedule", "0:4",
                                                            "--duration", "1.5", "--trace", trace])
        #expect(result.status == 0, "\(result.stderr)")
        let capped = rows(try String(contentsOfFile: trace, encoding: .utf8)).filter { $0["fps_cap"] == "30" }
        #expect(capped.count >= 25)
        #expect(capped.allSatisfy { $0["refresh_mode"] == "fixed" && $0["target_timestamp"] == $0["present_time"] })
        let targets = capped.compactMap { Double($0["target_timestamp"] ?? "") }
        #expect(zip(targets, targets.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 2e-9 })
    }

    @Test("Without work an uncapped simulated frame costs 1 ms: a run of N seconds ends after N × 1000 frames",
          arguments: [["--fps", "uncapped"], ["--fps-schedule", "0:uncapped"], ["--fps-schedule", "1:uncapped"]])
    func uncappedWithoutWork(arguments: [String]) throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("u.csv").path
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--duration", "3", "--trace", trace]
                                        + arguments, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let uncapped = rows(try String(contentsOfFile: trace, encoding: .utf8)).filter { $0["fps_cap"] == "uncapped" }
        // The uncapped stretch runs from its start to 3 s, a frame a millisecond.
        let seconds = arguments.last == "1:uncapped" ? 2.0 : 3.0
        #expect(abs(Double(uncapped.count) - seconds * 1000) <= 2, "\(uncapped.count) uncapped frames")
        // From the third: the first two take over from the 60 Hz frames before them.
        let deltas = uncapped.dropFirst(2).compactMap { Double($0["delta"] ?? "") }
        #expect(deltas.allSatisfy { abs($0 - 0.001) < 1e-9 }, "an uncapped frame not 1 ms apart")
    }
}
