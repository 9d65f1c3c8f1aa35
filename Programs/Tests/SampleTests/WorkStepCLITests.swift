import Foundation
import Testing

/// The sample's simulated display with work that steps up and down, judged on
/// its trace's glass times. Expected from first principles: the simulator
/// shows a frame at the first vblank at or after its present and models no
/// cost beyond the work, so work w on 60 Hz is shown every ⌈w / 16.667 ms⌉ vblanks
/// (under `--fps 30` at least 2; adaptive keeps 15% above the work when the
/// rate drops and needs 30% before it climbs).
@Suite("spinning-sprite: the work's rate follows the work both ways")
struct WorkStepCLITests {
    @Test("--simulate-display fixed:60 --work-schedule 0:5,1:20,2:5,3:40,4:16.5,5:16.7: one transition frame at most, then n vblanks apart",
          arguments: [
              // 5, 20, 5, 40, 16.5 (fits 16.667), 16.7 ms.
              ([], [1, 2, 1, 3, 1, 2]),
              (["--fps", "30"], [2, 2, 2, 3, 2, 2]),
              // 6.5, 23, 6.5, 46 ms; 16.5 ms + 30% = 21.45 ms climbs from 3 vblanks to 2 only; 16.7 ms fits 2.
              (["--fps", "adaptive"], [1, 2, 1, 3, 2, 2]),
          ] as [([String], [Int])])
    func workSchedule(limit: [String], expected: [Int]) throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.csv").path
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--work-schedule",
                                                            "0:5,1:20,2:5,3:40,4:16.5,5:16.7", "--duration", "6", "--trace", path] + limit)
        #expect(result.status == 0, "\(result.stderr)")
        // callback_time, target_timestamp and glass_time of every frame.
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: ",").map(String.init)
            return f.count >= 14 && Int(f[0]) != nil ? (start: Double(f[9])!, target: Double(f[2])!, glass: Double(f[10])!) : nil
        }
        let period = 1.0 / 60
        for (second, vblanks) in expected.enumerated() {
            let frames = rows.indices.filter { rows[$0].start >= Double(second) && rows[$0].start < Double(second + 1) }
            // The first frame of each second, planned before its work changed, is the one transition frame: from
            // the second on, every frame is `vblanks` after the one before and on its target.
            let apart = frames.dropFirst().map { (rows[$0].glass - rows[$0 - 1].glass) / period }
            #expect(apart.count > 15 && apart.allSatisfy { abs($0 - Double(vblanks)) < 0.001 },
                    "second \(second): \(vblanks) vblanks apart expected, got \(Set(apart.map { ($0 * 1000).rounded() / 1000 }))")
            let off = frames.dropFirst().filter { abs(rows[$0].glass - rows[$0].target) >= 0.000_001 }
            #expect(off.isEmpty, "second \(second): frames \(off) off their targets")
        }
    }
}
