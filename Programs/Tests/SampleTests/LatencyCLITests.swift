import Foundation
import Testing

/// Real time, headless at a 60 FPS cap: low latency really waits before the
/// callback, until the target less the frame's predicted cost and a safety.
///
/// Real time on a shared 2-core machine is noisy: when other work preempts the
/// game, the 95th percentile of its own work grows (9 ms for a 3 ms median was
/// seen under the whole suite's load), and low mode rightly starts that much
/// earlier. So latency is judged against the costs measured in the same run
/// (the Chrome trace's work slices), not against a fixed figure: at most the
/// work's 95th percentile plus the safety's ceiling (4 ms) and a little for
/// the present. On a quiet machine that is about 7 ms; smooth mode's is a whole
/// frame. The figures themselves are `Scripts/bench latency`'s to measure.
@Suite("spinning-sprite --latency, in real time", .serialized)
struct LatencyCLITests {
    /// One frame of a Chrome trace, in ms from the run's start.
    struct Frame {
        var inputRead = 0.0
        var latency = 0.0
        var work = 0.0
    }

    /// Runs headless at 60 FPS with a Chrome trace; the frames in order, and stdout.
    private func headless(_ arguments: [String]) throws -> (frames: [Frame], stdout: String) {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.json").path
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--fps", "60", "--trace", path] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        var frames: [Int: Frame] = [:]
        for event in events {
            guard let args = event["args"] as? [String: Any], let index = args["frame"] as? Int,
                  let ts = event["ts"] as? Double else { continue }
            switch event["name"] as? String {
            case "input read":
                frames[index, default: Frame()].inputRead = ts / 1_000
                frames[index, default: Frame()].latency = (args["latency_us"] as? Double ?? .nan) / 1_000
            case "work":
                frames[index, default: Frame()].work = (event["dur"] as? Double ?? .nan) / 1_000
            default: break
            }
        }
        return (frames.keys.sorted().map { frames[$0]! }, result.stdout)
    }

    private func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[max(1, Int((q * Double(sorted.count)).rounded(.up))) - 1]
    }

    /// The most low mode's median latency may be: the work's 95th percentile,
    /// the safety's ceiling, 1 ms for the present and the wake-ups.
    private func lowBound(_ frames: some Collection<Frame>) -> Double {
        quantile(frames.map(\.work), 0.95) + 4 + 1
    }

    @Test("--latency low: input read just in time for the present, and the summary reports the latency")
    func lowFlag() throws {
        let (all, stdout) = try headless(["--latency", "low", "--duration", "3"])
        #expect(all.count > 150)
        // Skip the first frames: the predictor learns the frame's cost from them.
        let frames = all.dropFirst(10)
        let p50 = quantile(frames.map(\.latency), 0.5)
        #expect(p50 <= lowBound(frames), "latency p50 \(p50) ms, work p95 \(quantile(frames.map(\.work), 0.95)) ms")
        #expect(stdout.contains(", latency p50 "))
    }

    @Test("L switches smooth to low in the same run: latency drops from a frame to the frame's cost")
    func keyToggle() throws {
        // Smooth for 2 s, then L, then low for 2 s.
        let (frames, _) = try headless(["--latency", "smooth", "--input-script", "2:key=l", "--duration", "4"])
        let start = try #require(frames.first?.inputRead)
        let smooth = frames.filter { $0.inputRead - start < 1_900 }.dropFirst(10)
        let low = frames.filter { $0.inputRead - start > 2_200 }
        #expect(smooth.count > 60 && low.count > 60)
        let smoothP50 = quantile(smooth.map(\.latency), 0.5)
        let lowP50 = quantile(low.map(\.latency), 0.5)
        #expect(smoothP50 >= 12, "smooth starts right after the previous present: \(smoothP50) ms")
        // The predictor's window (120 frames, 2 s) still holds smooth frames'
        // costs just after the switch: bound by the work of both.
        let both = smooth + low
        #expect(lowP50 <= lowBound(both), "low \(lowP50) ms, work p95 \(quantile(both.map(\.work), 0.95)) ms")
        // How many frames each mode makes late is a timing figure, so it is
        // measured by `Scripts/bench latency` on a quiet machine, not here.
    }
}
