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

/// `Scripts/vblank-check --paced` on a slow machine: frames further apart than
/// the mode's rate pass only when they were late and their own work (callback
/// to present return) needed that many vblanks, one more at most; beside the
/// plain vsync loop, only the intervals free of work longer than a refresh
/// (callback to work end) count. Each run is
/// made here on the 6 Hz mode: the kernel's vblanks every 1/6 s, a frame on
/// every `stride`-th, each presented after its target with `work` seconds
/// from its callback.
@Suite("vblank-check judges the rate by the frames' own work")
struct VblankCheckPacedTests {
    private let script = Desktop.repository.appendingPathComponent("Scripts/vblank-check").path
    private let modeline = "2.40 640 656 720 800 480 483 487 500 -hsync -vsync"   // 2.4 MHz / (800 x 500) = 6 Hz

    /// `pause` vblanks more after the first frame, which the trace marks as
    /// having waited on the display; the sample's achieved FPS counts the
    /// interval from it when `countsPause`, as it must not.
    /// `lost`: frames (by index) that come a vblank later than the stride
    /// puts them; `plain`: the plain vsync loop's line beside the run;
    /// `cap`: the run's cap (else uncapped); `noEvent`: vblanks the kernel
    /// delivered no event on (Xorg copies a late frame with no flip);
    /// `startUp`: the first frame's own seconds of work, late (llvmpipe's start-up); `heavy`: frames
    /// (by index) whose own work takes 0.4 s, more than two refreshes.
    private func judge(stride: Int, work: Double, late: Bool, pause: Int = 0, countsPause: Bool = false,
                       lost: Set<Int> = [], plain: String? = nil, cap: Int? = nil,
                       noEvent: Set<Int> = [], startUp: Double? = nil, heavy: Set<Int> = []) throws -> Subprocess.Result {
        let dir = try Subprocess.temporaryDirectory()
        let run = dir.appendingPathComponent("weston-6hz-fps0").path
        let period = 1.0 / 6, start = 1000.0
        var vblank = ""
        for seq in 0..<200 where !noEvent.contains(seq) {
            vblank += "weston-1 [000] 1.0: drm_vblank_event: crtc=0, seq=\(seq), time=\(Int64((start + Double(seq) * period) * 1e9)), high-prec=true\n"
        }
        var csv = "frame,target_timestamp,present_time,callback_time,work_end,glass_time,glass_source,effective_hz,run_start,display_wait\n"
        var glassTimes: [Double] = []
        for i in 0..<20 {
            let glass = start + Double(10 + i * stride + (i > 0 ? pause : 0) + lost.filter { $0 <= i }.count) * period
            let longWork = i == 0 ? startUp : heavy.contains(i) ? 0.4 : nil
            let target = late || longWork != nil ? glass - period : glass
            let present = glass - 0.01
            glassTimes.append(glass)
            let wait = i == 0 && pause > 0 ? "\(Double(pause) * period)" : ""
            csv += "\(i),\(target),\(present),\(present - (longWork ?? work)),\(present),\(glass),feedback,6,0,\(wait)\n"
        }
        let counted = pause > 0 && !countsPause ? Array(glassTimes.dropFirst()) : glassTimes
        let achieved = Double(counted.count - 1) / (counted.last! - counted.first!)
        try csv.write(toFile: run + ".csv", atomically: true, encoding: .utf8)
        try vblank.write(toFile: run + ".vblank", atomically: true, encoding: .utf8)
        try """
            frames 20, achieved \(String(format: "%.2f", achieved)) FPS, interval p50 – p99 –, late \(late ? 20 : 0), hitch ratio 0.0 ms/s
            display clock: Wayland presentation-time

            """.write(toFile: run + ".out", atomically: true, encoding: .utf8)
        var arguments = [run, "--clock", "Wayland presentation-time", "--modeline", modeline, "--paced"]
            + (cap.map { ["--cap", "\($0)"] } ?? ["--uncapped"])
        if let plain {
            try plain.write(toFile: run + "-plain.out", atomically: true, encoding: .utf8)
            arguments += ["--baseline", run + "-plain.out"]
        }
        return try Subprocess.runExecutable(script, arguments, timeout: 30)
    }

    @Test("A cap of 3, frames every other vblank, one on a vblank the kernel sent no event for: judged on the kernel's grid, passed")
    func capWithAVblankWithoutEvent() throws {
        // Frame 5 is on vblank 10 + 2 x 5.
        let result = try judge(stride: 2, work: 0.05, late: false, cap: 3, noEvent: [20])
        #expect(result.status == 0 && result.stdout.contains("ok:"), "\(result.stdout) \(result.stderr)")
        #expect(!result.stderr.contains("Traceback"), "\(result.stderr)")
    }

    @Test("Late frames 5 vblanks apart whose work took 0.7 s (4.2 vblanks): the work's rate, passed")
    func workNeedsThem() throws {
        let result = try judge(stride: 5, work: 0.7, late: true)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("late frames' own work 700 ms (5 vblanks)"), "\(result.stdout)")
    }

    @Test("Late frames 5 vblanks apart whose work took 0.2 s: slower than the work needs, a failure")
    func slowerThanTheWork() throws {
        let result = try judge(stride: 5, work: 0.2, late: true)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("median 5 vblanks per frame, 1 expected"), "\(result.stdout)")
    }

    @Test("A first frame that waited 5 s on the display (display_wait): a pause, no interval to the next, as the sample counts it; a figure counting it is a failure")
    func displayWaitIsAPause() throws {
        let paused = try judge(stride: 1, work: 0.05, late: false, pause: 30)
        #expect(paused.status == 0, "\(paused.stdout)")
        #expect(paused.stdout.contains("achieved 6.00 FPS, by the kernel 6.000"), "\(paused.stdout)")
        let counted = try judge(stride: 1, work: 0.05, late: false, pause: 30, countsPause: true)
        #expect(counted.status == 1, "\(counted.stdout)")
        #expect(counted.stdout.contains("by the kernel's vblanks 6.000"), "\(counted.stdout)")
    }

    @Test("Frames 2 vblanks apart, none late, uncapped: below the display's rate for nothing, a failure")
    func slowWithoutLateness() throws {
        let result = try judge(stride: 2, work: 0.05, late: false)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("median 2 vblanks per frame, 1 expected"), "\(result.stdout)")
    }

    @Test("Frames 2 vblanks apart, none late but the first, which waited 5 s on the display starting up: its work allows the others nothing, a failure")
    func startUpIsNoWork() throws {
        let result = try judge(stride: 2, work: 0.05, late: false, pause: 30, plain: plainAtTheRate, startUp: 5)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("median 2 vblanks per frame, 1 expected"), "\(result.stdout)")
    }

    /// The plain loop's line: 30 frames, returns 6.24 a second (Xorg's presents do not wait for the vblank).
    private let plainAtTheRate = "plain vsync loop: 30 frames in 8.0 s, the first after 3.3 s, 6.237 FPS after it\n"

    @Test("Late frames whose work needs nearly a refresh, one in six a vblank later, beside a plain loop at the display's rate: the sample lost vblanks the plain loop kept, a failure")
    func slowerThanThePlainLoop() throws {
        // 19 intervals over 19 + 3 vblanks: 5.18 FPS, below 6 x 19 / 20 = 5.70.
        let result = try judge(stride: 1, work: 0.15, late: true, lost: [5, 11, 17], plain: plainAtTheRate)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("5.182 FPS by the kernel over 19 intervals, below the plain vsync loop's 6.000 less one vblank over them (5.700)"),
                "\(result.stdout)")
    }

    @Test("One vblank lost in the run beside the plain loop: within the tolerance, passed; none lost, passed")
    func oneVblankIsTheTolerance() throws {
        let one = try judge(stride: 1, work: 0.15, late: true, lost: [9], plain: plainAtTheRate)
        #expect(one.status == 0, "\(one.stdout)")
        let none = try judge(stride: 1, work: 0.05, late: false, plain: plainAtTheRate)
        #expect(none.status == 0, "\(none.stdout)")
    }

    @Test("Late frames whose own work takes 0.45 s, every third vblank, beside a plain loop at the display's rate: slower than it only by what that work needs, passed")
    func slowerOnlyByItsOwnWork() throws {
        // 0.45 s of work is 2.7 refreshes of 6 Hz: a frame every 3 vblanks is the most it allows.
        let result = try judge(stride: 3, work: 0.45, late: true, plain: plainAtTheRate)
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test("Two frames whose own work takes 0.4 s, each a vblank later, the rest at the display's rate beside a plain loop at that rate: the intervals that work made left out, passed; the same vblanks lost with no such work, a failure")
    func startUpWorkIsLeftOut() throws {
        let heavy = try judge(stride: 1, work: 0.05, late: false, lost: [1, 2], plain: plainAtTheRate, heavy: [1, 2])
        #expect(heavy.status == 0, "\(heavy.stdout)")
        #expect(heavy.stdout.contains("the sample 6.000 FPS over the 16 intervals its work allowed"), "\(heavy.stdout)")
        let light = try judge(stride: 1, work: 0.05, late: false, lost: [1, 2], plain: plainAtTheRate)
        #expect(light.status == 1, "\(light.stdout)")
    }

    @Test("Frames every other vblank beside a plain loop that made 3.07 a second: no slower than it, passed")
    func besideASlowPlainLoop() throws {
        let result = try judge(stride: 2, work: 0.3, late: true,
                               plain: "plain vsync loop: 30 frames in 21.7 s, the first after 12.2 s, 3.066 FPS after it\n")
        #expect(result.status == 0, "\(result.stdout)")
    }
}
