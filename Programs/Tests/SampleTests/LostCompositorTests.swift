import Foundation
import Testing

/// A native Wayland run whose compositor goes away ends at once: exit 1
/// naming what was lost, the summary printed, the trace complete in its
/// place and no partial file. SDL 2.26 can spin for ever inside a present
/// (or a window's start-up) on the dead connection; the watchdog ends those.
@Suite("A compositor lost under a native run", .serialized)
struct LostCompositorTests {
    /// How long after the kill the game must have said what was lost, the
    /// compositor's own end (which closes the socket) included: 2 s, a bound
    /// on a busy machine that no spin or hang meets. The game's own reaction
    /// is far quicker: 40 to 106 ms in 10 kills under `Scripts/load` and two
    /// more busy loops, medians of 42 to 83 ms in 60 start-up kills by hand
    /// at a load average of 15.
    static let sayBound = 2.0
    /// How long after the kill the process must have ended: its last word is
    /// followed by `_exit`, but the kernel tears a process with a GL driver's
    /// threads down slowly on a busy machine (0.01 to 1.3 s after the word in
    /// those 10 kills, 3.6 s once), so this bound only tells an end from a
    /// run that goes on (15 to 30 s here).
    static let endBound = 10.0

    @Test("The compositor killed mid-run: exit 1 naming it, the trace complete, well before --duration",
          arguments: [Desktop.Kind.mutter, .kwin], [1.5, 2.5])
    func compositorKilled(kind: Desktop.Kind, after: Double) throws {
        try #require(kind.isInstalled, "\(kind) is not installed (Scripts/setup)")
        let desktop = try Desktop(kind)
        let dir = try Subprocess.temporaryDirectory()
        defer { desktop.stop(); try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.csv")
        let started = Date()
        var killedAt = Date()
        // Signal 0 sends nothing: the desktop is stopped (SIGTERM to its group) just before.
        let result = try Subprocess.run("spinning-sprite", ["--video", "wayland", "--duration", "30", "--trace", trace.path],
                                        environment: desktop.environment(.wayland), timeout: 60,
                                        signal: (after: after, number: 0),
                                        beforeSignal: { killedAt = Date(); desktop.stop() })
        #expect(result.status == 1, "status \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("the Wayland compositor at WAYLAND_DISPLAY="), "\(result.stderr)")
        #expect(result.stderr.contains("went away"), "\(result.stderr)")
        #expect(result.stdout.contains("frames "), "no summary: \(result.stdout)")
        let text = try String(contentsOf: trace, encoding: .utf8)
        #expect(text.hasPrefix("frame,"), "trace header missing")
        #expect(text.hasSuffix("\n"), "trace cut mid-line")
        let partials = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".partial") }
        #expect(partials.isEmpty, "\(partials)")
        // Bounded, not timed: the desktop's own stop takes up to 5 s; the run had 30 s.
        #expect(Date().timeIntervalSince(killedAt) < 12, "ran on after the compositor went (\(Date().timeIntervalSince(started)) s)")
    }

    @Test("The compositor killed at a random moment of the first 0.3 s: no spin, exit 1 at once, the server named within 2 s on a busy machine",
          arguments: [Desktop.Kind.mutter, .kwin], [["spinning-sprite", "--video", "wayland"], ["spinning-sprite"], ["template"]])
    func compositorKilledDuringStartUp(kind: Desktop.Kind, command: [String]) throws {
        try #require(kind.isInstalled, "\(kind) is not installed (Scripts/setup)")
        for _ in 0..<3 {
            let desktop = try Desktop(kind)
            defer { desktop.stop() }
            // As a player's session has it: both servers named, SDL's driver left to --video.
            var environment = desktop.environment(.x11)
            environment["SDL_VIDEODRIVER"] = ""
            let moment = Double.random(in: 0...0.3)
            let length = command[0] == "template" ? ["--frames", "900"] : ["--duration", "15"]
            var killedAt = Date()
            let result = try Subprocess.run(command[0], Array(command.dropFirst()) + length, environment: environment,
                                            timeout: 30, signal: (after: moment, number: 0),
                                            beforeSignal: { killedAt = Date(); desktop.killNow() })
            let took = Date().timeIntervalSince(killedAt)
            let what = "\(command.joined(separator: " ")) on \(kind), killed \(moment) s in"
            // Still open: killed within SDL's first tenth of a second under load, SDL 2.26's start-up
            // (after libdecor's "Couldn't open plugin directory") dies of SIGSEGV with no handler run.
            if result.status == SIGSEGV, took < Self.endBound {
                withKnownIssue("a silent SIGSEGV in SDL's Wayland start-up on a compositor killed", isIntermittent: true) {
                    Issue.record("\(what): killed by SIGSEGV: \(result.stderr)")
                }
                continue
            }
            #expect(result.status == 1, "\(what): status \(result.status): \(result.stderr)")
            #expect(took < Self.endBound, "\(what): ended \(took) s after the kill: \(result.stderr)")
            // Ours ("went away", "could not be reached"; "did not answer" while a dying compositor's socket still
            // listens), or Xlib's own when it ends the process first.
            let said = ["went away", "could not be reached", "did not answer", "X connection to", "on X server"]
                .compactMap { result.stderrTime(of: $0) }.min()
            #expect(said != nil, "\(what): \(result.stderr)")
            if let said {
                #expect(said.timeIntervalSince(killedAt) < Self.sayBound,
                        "\(what): said so \(said.timeIntervalSince(killedAt)) s after the kill: \(result.stderr)")
            }
        }
    }

    @Test("The template on a native compositor killed mid-run: exit 1 naming it, the summary printed",
          arguments: [Desktop.Kind.mutter, .kwin])
    func templateLosesItsCompositor(kind: Desktop.Kind) throws {
        try #require(kind.isInstalled, "\(kind) is not installed (Scripts/setup)")
        let desktop = try Desktop(kind)
        defer { desktop.stop() }
        var killedAt = Date()
        let result = try Subprocess.run("template", ["--frames", "1800"], environment: desktop.environment(.wayland),
                                        timeout: 60, signal: (after: 2.5, number: 0),
                                        beforeSignal: { killedAt = Date(); desktop.killNow() })
        #expect(result.status == 1, "status \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("template: the Wayland compositor at WAYLAND_DISPLAY="), "\(result.stderr)")
        #expect(result.stderr.contains("went away: the game ended"), "\(result.stderr)")
        #expect(result.stdout.contains("frames "), "no summary: \(result.stdout)")
        let said = result.stderrTime(of: "went away").map { $0.timeIntervalSince(killedAt) } ?? .infinity
        #expect(said < Self.sayBound, "said so \(said) s after the kill")
        #expect(Date().timeIntervalSince(killedAt) < Self.endBound, "ended \(Date().timeIntervalSince(killedAt)) s after the kill")
    }
}
