import Foundation
import Testing

/// `Scripts/vblank-check` on a run too short to judge (an emulated guest that
/// spent the run starting up): it says why and passes, unless the plain vsync
/// loop that ran beside it made its frames, which makes the shortfall the
/// sample's. The files are written here as the lab writes them.
@Suite("vblank-check on a run of too few frames")
struct VblankCheckTests {
    private let script = Desktop.repository.appendingPathComponent("Scripts/vblank-check").path
    private let modeline = "65.00 1024 1048 1184 1344 768 771 777 806 -hsync -vsync"

    /// A run of `frames` frames, the first presented 19.8 s after start, and
    /// the plain loop's line (none when nil); returns vblank-check's verdict.
    private func judge(frames: Int, plain: String?, err: String = "") throws -> Subprocess.Result {
        let dir = try Subprocess.temporaryDirectory()
        let run = dir.appendingPathComponent("weston-60hz").path
        var csv = "frame,target_timestamp,present_time,glass_time,glass_source,run_start\n"
        for i in 0..<frames {
            let t = 19.8 + Double(i) / 60
            csv += "\(i),\(t),\(t),\(t + 0.01),feedback,100.0\n"
        }
        try csv.write(toFile: run + ".csv", atomically: true, encoding: .utf8)
        try "".write(toFile: run + ".out", atomically: true, encoding: .utf8)
        try err.write(toFile: run + ".err", atomically: true, encoding: .utf8)
        try "".write(toFile: run + ".vblank", atomically: true, encoding: .utf8)
        var arguments = [run, "--clock", "Wayland presentation-time", "--modeline", modeline, "--minimum", "12",
                         "--baseline", run + "-plain.out"]
        if let plain { try plain.write(toFile: run + "-plain.out", atomically: true, encoding: .utf8) } else {
            arguments[arguments.count - 1] = dir.appendingPathComponent("missing.out").path
        }
        return try Subprocess.runExecutable(script, arguments, timeout: 30)
    }

    @Test("Too few frames where the plain loop made few too: not judged, start-up named, exit 0")
    func slowForAnyGame() throws {
        let result = try judge(frames: 3, plain: "plain vsync loop: 2 frames in 80.0 s, the first after 60.1 s, 0.030 FPS after it\n")
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("not judged: 3 frames, fewer than the 12 judged (start-up took 19.8 s"), "\(result.stdout)")
        #expect(result.stdout.contains("made 2 frames in 80.0 s"), "\(result.stdout)")
    }

    @Test("Too few frames where the plain loop made its frames: a failure, both counts said")
    func slowForTheSampleAlone() throws {
        let result = try judge(frames: 3, plain: "plain vsync loop: 30 frames in 6.2 s, the first after 4.1 s, 14.500 FPS after it\n")
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("FAILED: 3 frames"), "\(result.stdout)")
        #expect(result.stdout.contains("made 30 frames"), "\(result.stdout)")
    }

    @Test("No frame at all: the sample's own reason repeated; no word from the plain loop is a failure")
    func noFrame() throws {
        let said = "spinning-sprite: no frame presented: start-up (SDL, the window, the renderer) took 61.0 s\n"
        let slow = try judge(frames: 0, plain: "plain vsync loop: 0 frames in 80.0 s, the first after -, - FPS after it\n", err: said)
        #expect(slow.status == 0, "\(slow.stdout)")
        #expect(slow.stdout.contains("took 61.0 s"), "\(slow.stdout)")
        let unknown = try judge(frames: 0, plain: nil, err: said)
        #expect(unknown.status == 1, "\(unknown.stdout)")
        #expect(unknown.stdout.contains("no word from the plain vsync loop"), "\(unknown.stdout)")
    }
}
