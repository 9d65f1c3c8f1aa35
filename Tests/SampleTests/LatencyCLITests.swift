import Foundation
import Testing

/// Real time, headless at a 60 FPS cap: low latency really waits before the
/// callback. Real time on a shared machine is noisy, so the bounds are loose:
/// this checks the semantics (input read a few ms before the present instead
/// of a frame earlier), not the figures, which `Scripts/bench` measures.
@Suite("spinning-sprite --latency, in real time")
struct LatencyCLITests {
    /// One frame of a CSV trace.
    struct Row {
        let target: Double
        let presentTime: Double
        let callbackTime: Double
        /// Present minus callback start, in ms.
        var latency: Double { (presentTime - callbackTime) * 1_000 }
        /// The statistics' definition: on the glass more than 0.5 ms after the target.
        var isLate: Bool { presentTime - target > 0.000_5 }

        init?(csvLine: Substring) {
            let f = csvLine.split(separator: ",").map(String.init)
            guard f.count == 10, Int(f[0]) != nil, let t = Double(f[2]), let p = Double(f[3]), let c = Double(f[9])
            else { return nil }
            target = t; presentTime = p; callbackTime = c
        }
    }

    private func headless(_ arguments: [String]) throws -> (rows: [Row], stdout: String) {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.csv").path
        let result = try Subprocess.run("spinning-sprite", ["--headless", "--fps", "60", "--trace", path] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap(Row.init(csvLine:))
        return (rows, result.stdout)
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[(sorted.count - 1) / 2]
    }

    @Test("--latency low: input read within a few ms of the present, and the summary says so")
    func lowFlag() throws {
        let (rows, stdout) = try headless(["--latency", "low", "--duration", "2"])
        #expect(rows.count > 90)
        // Skip the first frames: the predictor learns the frame's cost from them.
        #expect(median(rows.dropFirst(10).map(\.latency)) <= 8, "latencies: \(rows.map(\.latency))")
        #expect(stdout.contains(", latency p50 "))
    }

    @Test("L switches smooth to low in the same run: latency drops from about a frame, late frames at most twice as many")
    func keyToggle() throws {
        // Smooth for 2 s, then L, then low for 2 s.
        let (rows, _) = try headless(["--latency", "smooth", "--input-script", "2:key=l", "--duration", "4"])
        let start = try #require(rows.first?.callbackTime)
        let smooth = rows.filter { $0.callbackTime - start < 1.9 }.dropFirst(10)
        let low = rows.filter { $0.callbackTime - start > 2.2 }
        #expect(smooth.count > 60 && low.count > 60)
        #expect(median(smooth.map(\.latency)) >= 12, "smooth starts right after the previous present")
        #expect(median(low.map(\.latency)) <= 8, "low latencies: \(low.map(\.latency))")
        let lateSmooth = smooth.filter(\.isLate).count
        let lateLow = low.filter(\.isLate).count
        #expect(lateLow <= 2 * lateSmooth + 4 + low.count / 20, "late: smooth \(lateSmooth), low \(lateLow)")
    }
}
