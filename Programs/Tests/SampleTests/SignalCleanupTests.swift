import Foundation
import Testing

/// No hidden `.partial` file outlives a run, whatever signal ends it: the
/// stop signals (SIGINT, SIGTERM, SIGHUP, SIGPIPE) end it cleanly with the
/// outputs saved; every other catchable one ends it as by default, after the
/// temporary files are removed.
@Suite("Signals leave no partial files")
struct SignalCleanupTests {
    private func partials(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".partial") }
    }

    private func longRun(_ trace: String) -> [String] {
        ["--simulate-display", "fixed:240", "--duration", "86400", "--trace", trace]
    }

    @Test("SIGPIPE mid-run is a clean stop: exit 0, the summary, the trace complete")
    func sigpipe() throws {
        let dir = try Subprocess.temporaryDirectory()
        let trace = dir.appendingPathComponent("t.csv")
        let result = try Subprocess.run("spinning-sprite", longRun(trace.path), timeout: 60, signal: (after: 1.5, number: SIGPIPE))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("frames "))
        #expect(try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").count > 100)
        #expect(partials(in: dir).isEmpty)
    }

    @Test("Standard output closed by the reader (| true): the trace is still saved")
    func closedStandardOutput() throws {
        let dir = try Subprocess.temporaryDirectory()
        let trace = dir.appendingPathComponent("t.csv").path
        let binary = Subprocess.productsDirectory.appendingPathComponent("spinning-sprite").path
        // bash reports the game's own status; `true` closes the pipe at once.
        let result = try Subprocess.runExecutable("/bin/bash", [
            "-c", "sleep 0.2 | true; \"$0\" --simulate-display fixed:240 --duration 30 --trace \"$1\" | true; echo ${PIPESTATUS[0]}",
            binary, trace,
        ])
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: trace))
        #expect(partials(in: dir).isEmpty)
    }

    @Test("Any other catchable signal ends the run as it would, leaving an older trace and no partial file",
          arguments: [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGABRT, SIGSEGV])
    func fatalSignal(signal: Int32) throws {
        let dir = try Subprocess.temporaryDirectory()
        let trace = dir.appendingPathComponent("t.csv")
        try Data("OLD\n".utf8).write(to: trace)
        let result = try Subprocess.run("spinning-sprite", longRun(trace.path), timeout: 30, signal: (after: 1.5, number: signal))
        #expect(result.status == signal, "ended by the signal itself, not by finishing the run")
        #expect(try String(contentsOf: trace, encoding: .utf8) == "OLD\n")
        #expect(partials(in: dir).isEmpty, "\(partials(in: dir))")
    }

    @Test("A signal during start-up leaves nothing behind", arguments: [0.0, 0.005, 0.02, 0.05, 0.1])
    func earlySignal(after: Double) throws {
        let dir = try Subprocess.temporaryDirectory()
        let result = try Subprocess.run("spinning-sprite", longRun(dir.appendingPathComponent("t.csv").path),
                                        timeout: 60, signal: (after: after, number: SIGTERM))
        if result.status == 0 { #expect(result.stdout.contains("frames ")) }
        #expect(partials(in: dir).isEmpty)
    }
}
