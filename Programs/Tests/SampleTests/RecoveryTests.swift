import Foundation
import Testing

/// What the loop learns from real time it unlearns: the sample in a real X
/// window on Xvfb's Present clock at 60 Hz while, for three seconds, another
/// SDL program renders uncapped on the same server, two busy loops take the
/// cores and the server is starved of CPU (stopped 70 ms in every 100), as on
/// a busy desktop. Presents then return late, and the link may learn a
/// slower rate from them. What must hold whatever else the machine does: the
/// frames say what held their rate, and a rate the presents taught is tried
/// again 0.5 s after it was learned, then after each failed try twice as long
/// later, at most 2 s (`PresentThroughput.longestProbeWait`), so nothing the
/// load taught holds the run down untried for longer. How soon the rate is
/// back is a figure: `Scripts/bench recovery`.
@Suite("What a busy machine teaches the loop, it unlearns", .serialized,
       .enabled(if: Desktop.Kind.xvfb.isInstalled, Desktop.skipReason))
struct RecoveryTests {
    @Test("Three seconds of load: a rate the presents taught holds at most 2 s untried, and the frames say why they were slower")
    func busySpell() throws {
        let desktop = try Desktop(.xvfb, options: ["-fakescreenfps", "60"])
        defer { desktop.stop() }
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.csv").path
        let group = desktop.processGroup, environment = desktop.environment
        let load = Thread {
            Thread.sleep(forTimeInterval: 2)
            let busy = (0..<2).map { _ in Self.start("/bin/sh", ["-c", "while :; do :; done"], [:]) }
            let other = Self.start(Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path,
                                   ["--window", "640x360", "--fps", "uncapped", "--duration", "4"], environment)
            for _ in 0..<30 {
                kill(-group, SIGSTOP)
                Thread.sleep(forTimeInterval: 0.07)
                kill(-group, SIGCONT)
                Thread.sleep(forTimeInterval: 0.03)
            }
            // SIGKILL: a shell loop started from the test runner may inherit SIGTERM ignored.
            for process in busy + [other] {
                if let process { kill(process.processIdentifier, SIGKILL) }
            }
        }
        load.start()
        let result = try Subprocess.run("spinning-sprite", ["--window", "640x360", "--duration", "10", "--trace", path],
                                        environment: environment, timeout: 60)
        kill(-group, SIGCONT)
        #expect(result.status == 0, "\(result.stderr)")
        // As in every real-time test, the start is left out: X Present's clock
        // is still being fitted then, and its grid moves by a millisecond or two.
        let rows = try CompositorTrace(path: path).rows(from: 1.5)
        // Xvfb's Present clock ticks on a millisecond timer: its vblanks move by up to a millisecond.
        PresentStatistics.expectSemantics(rows, cap: nil, "--fps 0", earlyTolerance: 0.001)
        #expect(rows.allSatisfy { ["display-rate", "presents", "work"].contains($0.limitedBy ?? "") },
                "\(Set(rows.map { $0.limitedBy ?? "none" }))")
        // A stretch of frames held by what the presents taught lasts at most
        // the try's interval, the slow frame under way when it is due, and the
        // refresh to the try's target; nor does one end the run untried longer.
        // (A stretch held by the work ends when the work fits again, which the
        // load decides.)
        let slowest = zip(rows, rows.dropFirst()).map { $1.target - $0.target }.max() ?? 0
        let bound = 2 + slowest + 1.0 / 60
        var stretches: [(start: Double, end: Double)] = []
        for (previous, row) in zip([nil] + rows.map(Optional.some), rows) where row.limitedBy == "presents" {
            if previous?.limitedBy == "presents", let last = stretches.popLast() {
                stretches.append((last.start, row.target))
            } else {
                stretches.append((previous?.target ?? row.target, row.target))
            }
        }
        let long = stretches.filter { $0.end - $0.start > bound }
        #expect(long.isEmpty, "held by the presents without a try: \(long.map { $0.end - $0.start }) s")
        print("taught a slower rate for \(rows.filter { $0.limitedBy == "presents" }.count) of \(rows.count) frames; "
              + result.stdout.prefix(200))
    }

    /// Starts a load process; nil where it cannot start (the test then runs lighter).
    private static func start(_ path: String, _ arguments: [String], _ environment: [String: String]) -> Process? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return (try? process.run()).map { process }
    }
}
