import Foundation
import Testing

/// The sample's simulated display with work that steps up and down, judged on
/// its trace's glass times. Expected from first principles: the simulator
/// shows a frame at the first vblank at or after its present and models no
/// cost beyond the work, so work w on 60 Hz is shown every ⌈w / 16.667 ms⌉ vblanks.
@Suite("spinning-sprite: the work's rate follows the work both ways")
struct WorkStepCLITests {
    @Test("--simulate-display fixed:60 --work-schedule 0:5,1:20,2:5,3:40,4:16.5,5:16.7: one transition frame at most, then 1, 2, 1, 3, 1, 2 vblanks apart")
    func workSchedule() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.csv").path
        let result = try Subprocess.run("spinning-sprite", ["--simulate-display", "fixed:60", "--work-schedule",
                                                            "0:5,1:20,2:5,3:40,4:16.5,5:16.7", "--duration", "6", "--trace", path])
        #expect(result.status == 0, "\(result.stderr)")
        // callback_time, target_timestamp and glass_time of every frame.
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: ",").map(String.init)
            return f.count >= 14 && Int(f[0]) != nil ? (start: Double(f[9])!, target: Double(f[2])!, glass: Double(f[10])!) : nil
        }
        let period = 1.0 / 60
        for (second, vblanks) in [1, 2, 1, 3, 1, 2].enumerated() {
            let frames = rows.indices.filter { rows[$0].start >= Double(second) && rows[$0].start < Double(second + 1) }
            let apart = frames.dropFirst(2).map { (rows[$0].glass - rows[$0 - 1].glass) / period }
            #expect(apart.count > 15 && apart.allSatisfy { abs($0 - Double(vblanks)) < 0.001 },
                    "second \(second): \(vblanks) vblanks apart expected, got \(Set(apart.map { ($0 * 1000).rounded() / 1000 }))")
            // The first frame of each second keeps the old interval at most; after it, none other does.
            let next = frames.dropFirst().first.map { (rows[$0].glass - rows[$0 - 1].glass) / period } ?? 0
            #expect(abs(next - Double(vblanks)) < 0.001, "the second frame of second \(second) is \(vblanks) vblanks apart")
            // One steady cadence from the third frame: every frame on its target.
            #expect(frames.dropFirst(2).allSatisfy { abs(rows[$0].glass - rows[$0].target) < 0.000_001 })
        }
    }
}
