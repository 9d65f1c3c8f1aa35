import Foundation
import Testing

@Suite("spinning-sprite --fps adaptive, judged on its trace")
struct AdaptiveCLITests {
    /// One row of a CSV trace: what the adaptive checks read.
    struct Row {
        let target: Double
        let presentTime: Double
        let effectiveHz: Double
        let fpsCap: String
        /// Shown more than 0.5 ms after its target, the statistics' definition of late.
        var isLate: Bool { presentTime - target > 0.000_5 }

        /// A frame's row; nil for a line that is not one (a summary comment).
        init?(csvLine: Substring) throws {
            let fields = csvLine.split(separator: ",").map(String.init)
            guard fields.count == 10, Int(fields[0]) != nil else { return nil }
            target = try #require(Double(fields[2]))
            presentTime = try #require(Double(fields[3]))
            effectiveHz = try #require(Double(fields[6]))
            fpsCap = fields[5]
        }
    }

    /// Runs the sample in simulation with `arguments` and a CSV trace; the trace's rows.
    private func traced(_ arguments: [String]) throws -> [Row] {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.csv").path
        let result = try Subprocess.run("spinning-sprite", arguments + ["--fps", "adaptive", "--trace", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        return try lines.compactMap(Row.init(csvLine:))
    }

    @Test("VRR 48–144 fullscreen, work 4 → 11 → 5 ms: 144 Hz, then 70–91 Hz with ≤ 2% late, then above 130 Hz within 1.5 s")
    func workScheduleOnVariableRefresh() throws {
        let rows = try traced(["--simulate-display", "vrr:48-144", "--fullscreen",
                               "--work-schedule", "0:4,5:11,10:5", "--duration", "15"])
        func during(_ range: Range<Double>) -> [Row] { rows.filter { range.contains($0.target) } }

        #expect(rows.count > 1_500)
        #expect(rows.allSatisfy { $0.fpsCap == "adaptive" })
        #expect(during(0..<5).allSatisfy { $0.effectiveHz == 144 && !$0.isLate })
        let heavy = during(5..<10)
        let late = heavy.filter(\.isLate).count
        #expect(Double(late) <= 0.02 * Double(heavy.count), "\(late) of \(heavy.count) late")
        #expect(during(5.5..<10).allSatisfy { (70...91).contains($0.effectiveHz) })
        #expect(during(11.5..<15).allSatisfy { $0.effectiveHz > 130 && !$0.isLate })
    }

    @Test("Fixed 60 Hz with 20 ms of work: settles at 30 Hz and presents on time")
    func heavyWorkOnFixedRefresh() throws {
        let rows = try traced(["--simulate-display", "fixed:60", "--work-schedule", "0:20", "--duration", "5"])
        let settled = rows.filter { $0.target >= 0.5 }
        #expect(settled.count > 100)
        #expect(settled.allSatisfy { $0.effectiveHz == 30 && $0.presentTime == $0.target })
    }
}
