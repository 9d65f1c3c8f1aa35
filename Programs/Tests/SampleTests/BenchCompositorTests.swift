import Foundation
import Testing

/// `Scripts/bench`'s modes on desktops of their own, end to end: the
/// script's builds are left to a stand-in `swift` that names the programs
/// this test run built and, as SwiftPM does, leaves a folder in `TMPDIR`
/// each time: none of them may outlive the script.
@Suite("Scripts/bench's desktop modes run whole", .serialized,
       .enabled(if: Desktop.Kind.weston.isInstalled, "Weston is not installed (Scripts/setup)"))
struct BenchCompositorTests {
    @Test("Two rounds on Weston: exit 0, the table, the rates on Weston's timeline from its log, no build's folder left")
    func twoRounds() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folders = dir.appendingPathComponent("folders")
        let path = try ScriptSession.standInSwift(in: dir, body: "mktemp -d >>'\(folders.path)'\n"
            + "case \"$*\" in *--show-bin-path*) echo '\(Subprocess.productsDirectory.path)' ;; esac")
        let result = try Subprocess.runExecutable(Desktop.repository.appendingPathComponent("Scripts/bench").path,
                                                  ["compositor", "--seconds", "2"], environment: path, timeout: 240)
        #expect(result.status == 0, "status \(result.status): \(result.stdout) \(result.stderr)")
        #expect(!result.stderr.contains("Traceback"), "\(result.stderr)")
        #expect(result.stdout.contains("on Weston's timeline"), "\(result.stdout)")
        let made = try String(contentsOf: folders, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(!made.isEmpty)
        #expect(made.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "left: \(made)")
    }

    @Test("Ctrl-C during Scripts/bench sound: it ends by the signal, leaving no Xvfb, audio file or folder")
    func soundInterrupted() throws {
        try #require(Desktop.Kind.xvfb.isInstalled, "Xvfb is not installed")
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try ScriptSession.standInSwift(
            in: dir, body: "case \"$*\" in *--show-bin-path*) echo '\(Subprocess.productsDirectory.path)' ;; esac")
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [])
        let (result, group) = try ScriptSession.run([Desktop.repository.appendingPathComponent("Scripts/bench").path,
                                                     "sound", "--seconds", "20"], environment: path, timeout: 90,
                                                    signal: (after: Double.random(in: 3...8), number: SIGINT), toGroup: true)
        try #require(group > 0, "\(result.stderr)")
        #expect(result.status == SIGINT, "status \(result.status): \(result.stdout) \(result.stderr)")
        #expect(ScriptSession.survivors(ofGroup: group).isEmpty)
        // Its Xvfb, a session of its own, is display 200 + pid % 50 * 10 (Scripts/bench's bench_on).
        let display = 200 + group % 50 * 10
        #expect(!FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)"), "Xvfb :\(display) left")
        let mine = ["cadence-bench-audio-", "xvfb-run.", "cadence-bench."]
        let left = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).subtracting(before)
            .filter { name in mine.contains { name.hasPrefix($0) } }
        #expect(left.isEmpty, "left in /tmp: \(left)")
    }

    @Test("Scripts/bench repaint-sweep on Mutter: exit 0, and Mutter's X display left with no lock or socket")
    func repaintSweepLeavesNoDisplay() throws {
        try #require(Desktop.Kind.mutter.isInstalled, "Mutter is not installed (Scripts/setup)")
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try ScriptSession.standInSwift(
            in: dir, body: "case \"$*\" in *--show-bin-path*) echo '\(Subprocess.productsDirectory.path)' ;; esac")
        let started = Date()
        let result = try Subprocess.runExecutable(Desktop.repository.appendingPathComponent("Scripts/bench").path,
                                                  ["repaint-sweep", "--delays", "5", "--frames", "20"],
                                                  environment: path, timeout: 240)
        #expect(result.status == 0, "status \(result.status): \(result.stdout) \(result.stderr)")
        // Locks made during the run, by a process that is gone within 3 s: Mutter's, left when it was stopped.
        func stale() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { name in
                guard name.hasPrefix(".X"), name.hasSuffix("-lock"),
                      let made = (try? FileManager.default.attributesOfItem(atPath: "/tmp/\(name)"))?[.modificationDate] as? Date,
                      made >= started.addingTimeInterval(-1),
                      let text = try? String(contentsOfFile: "/tmp/\(name)", encoding: .utf8),
                      let holder = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
                for _ in 0..<30 where kill(holder, 0) == 0 { usleep(100_000) }
                return kill(holder, 0) != 0 && FileManager.default.fileExists(atPath: "/tmp/\(name)")
            }
        }
        // Another desktop on the machine (a second test run's Mutter) may have made and left locks in the
        // same seconds; its own stop removes them once its Mutter is gone, while the bench's are removed
        // before it exits or never: those left after 10 s more are the bench's.
        var left = stale()
        for _ in 0..<20 where !left.isEmpty {
            usleep(500_000)
            left = stale()
        }
        #expect(left.isEmpty, "X display locks left with no holder: \(left)")
    }
}

