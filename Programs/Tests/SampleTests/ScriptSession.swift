import Foundation

/// A script run as a terminal runs it, in a process group of its own, so that
/// what it leaves running is found by that group's id afterwards.
enum ScriptSession {
    /// Runs `arguments` in a new process group, with no signal blocked, and
    /// sends `signal` after `after` seconds, to the script alone or, with
    /// `toGroup`, to its whole group as a terminal's Ctrl-C does (by a process
    /// of another group, and no child of the script: a child's end would wake
    /// a script stuck waiting for one); returns what it printed and the
    /// group's id (the script's pid, which it says first on standard error).
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval,
                    signal: (after: TimeInterval, number: Int32), toGroup: Bool = false) throws -> (Subprocess.Result, pid_t) {
        let sender = "if os.fork() == 0:\n os.setpgid(0, 0)\n if os.fork() == 0:\n"
            + "  time.sleep(\(signal.after)); os.killpg(group, \(signal.number))\n os._exit(0)\nos.wait()\n"
        let result = try Subprocess.runExecutable("/usr/bin/python3", [
            "-c", "import os, signal, sys, time\nos.setpgid(0, 0); signal.pthread_sigmask(signal.SIG_SETMASK, [])\n"
                + "group = os.getpid(); print(f'group {group}', file=sys.stderr, flush=True)\n"
                + (toGroup ? sender : "") + "os.execv(sys.argv[1], sys.argv[1:])",
        ] + arguments, environment: environment, timeout: timeout, signal: toGroup ? nil : signal)
        let first = result.stderr.split(separator: "\n").first ?? ""
        return (result, pid_t(first.dropFirst("group ".count)) ?? 0)
    }

    /// The processes in the process group `group`, waited for up to 3 s to end.
    static func survivors(ofGroup group: pid_t) -> [String] {
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

    /// Processes whose command line contains `marker`, waited for up to `seconds` to end.
    static func survivors(running marker: String, seconds: Int = 3) -> [String] {
        var left: [String] = []
        for _ in 0..<(10 * seconds) {
            left = running(marker)
            if left.isEmpty { break }
            usleep(100_000)
        }
        return left
    }

    /// Processes whose command line contains `marker` now (but for a test's own python3 wrapper).
    static func running(_ marker: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard Int32(entry) != nil, Int32(entry) != getpid(),
                  let command = try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8) else { return nil }
            let line = command.replacingOccurrences(of: "\0", with: " ")
            return line.contains(marker) && !line.contains("python3 -c") ? "\(entry): \(line)" : nil
        }
    }

    /// A stand-in `swift` in `dir` running `body` (sh), and the environment
    /// that puts it first on PATH: SwiftPM's own would wait for the lock
    /// `swift test` holds on the build folder.
    static func standInSwift(in dir: URL, body: String) throws -> [String: String] {
        let swift = dir.appendingPathComponent("swift")
        try "#!/bin/sh\n\(body)\n".write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        return ["PATH": dir.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }
}
