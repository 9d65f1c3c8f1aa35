import Foundation
import Testing

/// A display server that is only slow is waited for; one that is gone ends
/// the run. The sample in a real X window on Xvfb (60 Hz) while the server is
/// stopped (SIGSTOP) for 10 s, as a grab by another client or a debugger
/// holds it, then resumed.
@Suite("A display that stops answering and comes back", .serialized,
       .enabled(if: Desktop.Kind.xvfb.isInstalled, Desktop.skipReason))
struct SlowDisplayTests {
    @Test("Xvfb stopped 10 s and resumed: the run goes on, the frame that waited says so, and the frames after are planned at the display's rate where nothing else holds them")
    func stoppedAndResumed() throws {
        let desktop = try Desktop(.xvfb, options: ["-fakescreenfps", "60"])
        defer { desktop.stop() }
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.csv").path
        let group = desktop.processGroup
        let stopper = Thread {
            Thread.sleep(forTimeInterval: 3)
            kill(-group, SIGSTOP)
            Thread.sleep(forTimeInterval: 10)
            kill(-group, SIGCONT)
        }
        stopper.start()
        let result = try Subprocess.run("spinning-sprite", ["--window", "640x360", "--duration", "19", "--trace", path],
                                        environment: desktop.environment, timeout: 90)
        kill(-group, SIGCONT)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the display stopped answering: waited "), "\(result.stderr)")

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        let column = { (name: String) in try #require(header.firstIndex(of: name), "no \(name) in \(header)") }
        let (waitColumn, presentColumn, reasonColumn) = (try column("display_wait"), try column("present_time"),
                                                         try column("limited_by"))
        let rateColumn = try column("effective_hz")
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        // One frame waited about as long as the server was stopped (it may have been mid-frame); on a
        // busy machine a call may take a second now and then too, and is told as a short wait.
        let waited = rows.filter { (Double($0[waitColumn]) ?? 0) > 8 }
        try #require(waited.count == 1, "\(waited.count) frames waited: \(rows.map { $0[waitColumn] }.filter { !$0.isEmpty })")
        let wait = try #require(Double(waited[0][waitColumn]))
        #expect(wait < 12, "waited \(wait) s")
        let resumed = try #require(Double(waited[0][presentColumn]))
        // The game goes on at the display's rate wherever its own work and the presents allow (how soon on a
        // quiet machine is a figure for the bench; a busy one's load may hold it, and the frames say so).
        let after = rows.filter { (Double($0[presentColumn]) ?? 0) >= resumed + 1 }
        let span = (after.last.flatMap { Double($0[presentColumn]) } ?? resumed) - (resumed + 1)
        try #require(span > 2, "the run went on \(span) s after the wait")
        let atTheDisplay = after.filter { $0[reasonColumn] == "display-rate" }
        #expect(atTheDisplay.allSatisfy { abs((Double($0[rateColumn]) ?? 0) - 60) < 1 }, "\(Set(atTheDisplay.map { $0[rateColumn] }))")
    }
}
