import Foundation
import Testing

/// The scripts and benches stop on SIGINT, SIGTERM and SIGHUP at any moment
/// with what they measured so far, and leave no process, X socket, lock or
/// temporary folder behind; the load `Scripts/load` starts ends even when the
/// script is killed with SIGKILL. Each script runs in a process group of its
/// own, so that every process it started (but a desktop, which has a session
/// of its own) is found by that group's id afterwards. Scripts/test runs
/// this suite after the others, alone: it loads the machine on purpose.
@Suite("Scripts stop on signals and leave nothing behind", .serialized)
struct ScriptSignalTests {
    private static let scripts = Desktop.repository.appendingPathComponent("Scripts")

    /// Runs `arguments` in a new process group, with no signal blocked, and
    /// sends `signal` after `after` seconds; returns what it printed and the
    /// group's id (the script's pid, which it says first on standard error).
    private func runInSession(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval,
                              signal: (after: TimeInterval, number: Int32)) throws -> (Subprocess.Result, pid_t) {
        let result = try Subprocess.runExecutable("/usr/bin/python3", [
            "-c", "import os, signal, sys; os.setpgid(0, 0); signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                + "print(f'group {os.getpid()}', file=sys.stderr, flush=True); os.execv(sys.argv[1], sys.argv[1:])",
        ] + arguments, environment: environment, timeout: timeout, signal: signal)
        let first = result.stderr.split(separator: "\n").first ?? ""
        return (result, pid_t(first.dropFirst("group ".count)) ?? 0)
    }

    /// The processes in the process group `group`, waited for up to 3 s to end.
    private func survivors(ofGroup group: pid_t) -> [String] {
        var left: [String] = []
        for _ in 0..<30 {
            left = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
                guard Int32(entry) != nil,
                      let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return nil }
                // After "pid (comm)": state, ppid, pgrp.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 2, Int32(fields[2]) == group else { return nil }
                let command = (try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8)) ?? ""
                return "\(entry): \(command.replacingOccurrences(of: "\0", with: " "))"
            }
            if left.isEmpty { break }
            usleep(100_000)
        }
        return left
    }

    @Test("Scripts/load killed at a random moment (SIGKILL too): no busy loop or SDL program outlives it",
          arguments: [SIGKILL, SIGINT, SIGHUP])
    func load(signal: Int32) throws {
        let (result, group) = try runInSession(["\(Self.scripts.path)/load", "sleep", "120"],
                                                 environment: ["LOAD_BIN": Subprocess.productsDirectory.path],
                                                 timeout: 60, signal: (after: Double.random(in: 0.5...4), number: signal))
        try #require(group > 0, "\(result.stderr)")
        let left = survivors(ofGroup: group)
        #expect(left.isEmpty, "outlived Scripts/load: \(left)")
    }

    @Test("Scripts/bench recovery stopped at a random moment: the table so far, exit 0, no Xvfb, socket, lock, load or folder",
          arguments: [SIGTERM, SIGINT])
    func recovery(signal: Int32) throws {
        try #require(Desktop.Kind.xvfb.isInstalled, "Xvfb is not installed")
        let before = Set(((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("cadence-recovery.") })
        let (result, group) = try runInSession([
            "\(Self.scripts.path)/bench-recovery", "--bin", Subprocess.productsDirectory.path, "--rounds", "2",
            "--fps", "0", "--seconds", "9", "--load-at", "1", "--load-seconds", "4",
        ], timeout: 90, signal: (after: Double.random(in: 0.5...8), number: signal))
        try #require(group > 0, "\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("recovery on xvfb"), "\(result.stdout)")
        #expect(result.stderr.contains("stopped by"), "\(result.stderr)")
        #expect(!result.stderr.contains("Traceback"), "\(result.stderr)")
        let left = survivors(ofGroup: group)
        #expect(left.isEmpty, "left running: \(left)")
        // Its Xvfb (a session of its own) is display 300 + pid % 50.
        let display = 300 + group % 50
        let xvfb = survivorsRunning(marker: "Xvfb :\(display) ")
        #expect(xvfb.isEmpty, "Xvfb left running: \(xvfb)")
        for path in ["/tmp/.X11-unix/X\(display)", "/tmp/.X\(display)-lock"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) left")
        }
        let after = Set(((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("cadence-recovery.") })
        #expect(after.subtracting(before).isEmpty, "temporary folders left: \(after.subtracting(before))")
    }

    /// Processes whose command line contains `marker`, waited for up to 3 s to end.
    private func survivorsRunning(marker: String) -> [String] {
        var left: [String] = []
        for _ in 0..<30 {
            left = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
                guard Int32(entry) != nil, Int32(entry) != getpid(),
                      let command = try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8) else { return nil }
                let line = command.replacingOccurrences(of: "\0", with: " ")
                return line.contains(marker) && !line.contains("python3 -c") ? "\(entry): \(line)" : nil
            }
            if left.isEmpty { break }
            usleep(100_000)
        }
        return left
    }

    @Test("A malformed --fps for Scripts/bench recovery: usage, exit 64, no traceback")
    func recoveryUsage() throws {
        let result = try Subprocess.runExecutable("\(Self.scripts.path)/bench-recovery", ["--bin", "/nonexistent", "--fps", "abc"],
                                                  timeout: 30)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--fps abc"), "\(result.stderr)")
        #expect(!result.stderr.contains("Traceback"), "\(result.stderr)")
    }

    @Test("cadence-bench stopped by a signal: ends at once, exit 0, the rounds so far said as such",
          arguments: [(["pacing", "--fps", "60", "--rounds", "5", "--round-seconds", "3"], SIGINT),
                      (["latency", "--rounds", "5", "--round-seconds", "3"], SIGTERM),
                      (["soak", "--minutes", "2"], SIGTERM),
                      (["soak", "--minutes", "2"], SIGHUP)])
    func bench(arguments: [String], signal: Int32) throws {
        let started = Date()
        let result = try Subprocess.run("cadence-bench", arguments, timeout: 60, signal: (after: 2.5, number: signal))
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("stopped by SIG"), "\(result.stdout)")
        // Its full length is 45 s or more: ended by the signal, with time to spare for a busy machine.
        #expect(took < 2.5 + 5, "took \(took) s")
    }

    @Test("A second vblank lab while one holds the lab: refused with 75 and a message, nothing touched")
    func labLock() throws {
        let lab = Desktop.repository.appendingPathComponent(".build-vblank-lab")
        try FileManager.default.createDirectory(at: lab, withIntermediateDirectories: true)
        // Holds the lock as a lab would (or finds a real lab holding it: refused all the same).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-n", lab.appendingPathComponent("lock").path, "sleep", "20"]
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        usleep(300_000)
        let result = try Subprocess.runExecutable("\(Self.scripts.path)/vblank-lab", ["accelerator"],
                                                  environment: ["VBLANK_LAB_LOCKED": ""], timeout: 30)
        #expect(result.status == 75, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("another vblank-lab"), "\(result.stderr)")
    }
}
