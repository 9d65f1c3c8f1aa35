import Foundation
import Testing

/// The sample in a real X11 window on Xvfb with a fake Present clock at 144 Hz
/// (`-fakescreenfps 144`), where SDL reports some other rate: the clock the
/// game paces on must be the X Present extension's, named as such, and caps
/// divide it.
@Suite("spinning-sprite on the X Present clock (Xvfb at -fakescreenfps 144)")
struct XPresentClockTests {
    struct Row {
        let target: Double, effectiveHz: Double, refreshMode: Substring
        /// The frame's glass time and its source (columns 10 and 11).
        let glassTime: Double?, glassSource: Substring?
        init?(csvLine line: Substring) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 7, let target = Double(fields[2]), let hz = Double(fields[6]) else { return nil }
            self.target = target
            effectiveHz = hz
            refreshMode = fields[7]
            glassTime = fields.count > 11 ? Double(fields[10]) : nil
            glassSource = fields.count > 11 ? fields[11] : nil
        }
    }

    /// Runs the sample for 3 s at `fps` under a private Xvfb ticking at 144 Hz;
    /// the trace's rows after the first second, and what it printed. How many
    /// frames a run makes is the machine's business (a starved server shows
    /// a few a second): each test asks for the few its rules need to be
    /// judged on at all, and judges every one there is.
    /// With `frames`, the run is that many frames and every row is kept.
    func run(fps: String, frames: Int? = nil) throws -> (rows: [Row], stdout: String) {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.csv").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        let result = try Subprocess.runExecutable("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 1280x720x24 -fakescreenfps 144", binary,
            "--window", "640x360", "--fps", fps, "--trace", path,
        ] + (frames.map { ["--frames", "\($0)"] } ?? ["--duration", "3"]), environment: ["SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": ""], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
            .compactMap(Row.init(csvLine:))
        let start = rows.first?.target ?? 0
        if frames != nil { return (rows, result.stdout) }
        return (rows.filter { $0.target >= start + 1 }, result.stdout)
    }

    /// The rates planned: every one a division of the 144 Hz clock and at
    /// most `cap`; the rate presents reach evenly (48, every 3rd tick) or
    /// slower where the machine is busy, but for the frames of a try (every
    /// 2 s), at the asked rate or the lower one the work allows (`asked` at
    /// most). How many frames a try runs before presents fall behind again
    /// depends on how busy the machine is: `Scripts/bench recovery` measures
    /// it. Xvfb's fake clock ticks on a millisecond timer, which on a busy
    /// machine fires late: the clock the loop fits from its MSC/UST then runs
    /// slow of 144 Hz (143.70 Hz, 0.21%, in a loaded run), and every rate
    /// divides that. A stride within 1% of a whole number of ticks tolerates
    /// it and still tells a rate that divides no clock near 144 Hz (45 Hz,
    /// a stride of 3.2, is 7% off).
    func expectDivisions(_ rows: [Row], cap: Double, asked: Double) {
        let strides = rows.map { 144 / $0.effectiveHz }
        #expect(strides.allSatisfy { abs($0 - $0.rounded()) <= 0.01 * $0 }, "\(Set(rows.map(\.effectiveHz)))")
        #expect(rows.allSatisfy { $0.effectiveHz <= cap * 1.002 }, "\(Set(rows.map(\.effectiveHz)))")
        let tries = rows.filter { $0.effectiveHz > 48 * 1.002 }
        #expect(tries.allSatisfy { $0.effectiveHz <= asked * 1.002 }, "\(tries.map(\.effectiveHz))")
    }

    @Test("--fps 0 runs on the 144 Hz Present clock at a division of it no faster than presents reach evenly (every 3rd tick), and says where the clock came from")
    func displayRateIsThePresentClock() throws {
        let (rows, stdout) = try run(fps: "0")
        #expect(rows.count >= 3)
        #expect(stdout.contains("display clock: X Present MSC/UST"), "\(stdout)")
        #expect(rows.allSatisfy { $0.refreshMode == "fixed" })
        // Mesa's software swap returns 16 ms after the last, 62.5 a second: the
        // highest rate at or below that the 144 Hz clock divides evenly is 48.
        expectDivisions(rows, cap: 144, asked: 144)
    }

    @Test("A cap divides the Present clock: 40 is every 4th tick (36 Hz), 30 every 5th (28.8 Hz), never above the cap",
          arguments: [("40", 4.0), ("30", 5.0)])
    func capsDivideThePresentClock(fps: String, stride: Double) throws {
        let (rows, _) = try run(fps: fps)
        #expect(rows.count >= 3)
        // Below the rate presents reach nothing but a busy machine slows the
        // cap, so a try at the asked rate is at the cap's own division.
        expectDivisions(rows, cap: Double(fps)!, asked: 144 / stride)
    }

    @Test("A cap above what the presents reach: 72 runs at a division no faster than 48, every 3rd tick, never above the cap")
    func capAboveReachableRate() throws {
        let (rows, _) = try run(fps: "72")
        #expect(rows.count >= 3)
        expectDivisions(rows, cap: 72, asked: 72)
    }

    @Test("Statistics on the Present clock: every glass time a vblank of it, the summary says so, never two within the cap's interval")
    func glassTimesFromThePresentClock() throws {
        let (rows, stdout) = try run(fps: "30")
        #expect(rows.count >= 3)
        #expect(rows.allSatisfy { $0.glassSource == "vblank" }, "\(Set(rows.map { $0.glassSource ?? "none" }))")
        #expect(stdout.contains("; glass times measured (the platform clock's vblank after the present) "), "\(stdout)")
        // Successive glass times are whole ticks of the 144 Hz clock apart
        // (its millisecond timer puts a tick up to 1 ms off): the glass is on
        // the grid. The targets lie at least 5 ticks apart (28.8 FPS, the
        // highest division at or below the cap) and no frame reaches the
        // glass before its target: so the cap holds on the glass but for what
        // a busy server adds (a frame it shows late, then one on time, come
        // closer), however busy the machine. How close to 28.8 the rate stays
        // is `Scripts/bench`'s to measure.
        let glass = rows.compactMap(\.glassTime)
        let ticks = zip(glass, glass.dropFirst()).map { ($1 - $0) * 144 }
        #expect(ticks.allSatisfy { abs($0 - $0.rounded()) <= 0.144 + 0.01 }, "\(ticks)")
        let planned = zip(rows, rows.dropFirst()).map { ($1.target - $0.target) * 144 }
        #expect(planned.allSatisfy { $0 >= 5 - 0.15 }, "\(planned)")
        #expect(rows.allSatisfy { ($0.glassTime ?? .infinity) >= $0.target - 0.000_5 })
    }

    /// Planned on the stand-in, frame 0's glass time was inferred from its
    /// present's return. Where its target lies among the clock's ticks, and
    /// whether the first frames are early, is not judged here: Xvfb's fake
    /// clock ticks on a millisecond timer, which on a busy machine puts ticks
    /// a quarter of a tick (1.8 ms) off, so a grid fitted to its first few
    /// ticks moves by a millisecond as more arrive (the other tests judge the
    /// frames after the first second; the vblank lab's lane, on the kernel's
    /// exact vblanks, judges every frame).
    @Test("The first frame is planned on the Present clock: the window's first picture waits for its ticks, so frame 0's glass time is a vblank of it")
    func firstFrameOnThePresentClock() throws {
        let (rows, _) = try run(fps: "0", frames: 12)
        try #require(!rows.isEmpty, "no frame")
        #expect(rows[0].glassSource == "vblank", "frame 0's glass time: \(rows[0].glassSource ?? "none")")
    }
}
