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

    @Test("Scripts/load killed at a random moment (SIGKILL too): no busy loop or SDL program outlives it",
          arguments: [SIGKILL, SIGINT, SIGHUP])
    func load(signal: Int32) throws {
        let (result, group) = try ScriptSession.run(["\(Self.scripts.path)/load", "sleep", "120"],
                                                 environment: ["LOAD_BIN": Subprocess.productsDirectory.path],
                                                 timeout: 60, signal: (after: Double.random(in: 0.5...4), number: signal))
        try #require(group > 0, "\(result.stderr)")
        let left = ScriptSession.survivors(ofGroup: group)
        #expect(left.isEmpty, "outlived Scripts/load: \(left)")
    }

    @Test("Ctrl-C at a random moment of Scripts/load (SIGINT to its whole group, its command's too): it ends at once, no busy loop or SDL program outlives it")
    func loadInterruptedAtTheTerminal() throws {
        let started = Date()
        let (result, group) = try ScriptSession.run(["\(Self.scripts.path)/load", "sleep", "120"],
                                                 environment: ["LOAD_BIN": Subprocess.productsDirectory.path],
                                                 timeout: 60, signal: (after: Double.random(in: 0.5...4), number: SIGINT),
                                                 toGroup: true)
        try #require(group > 0, "\(result.stderr)")   // Its command would run 120 s, the timeout 60.
        #expect(Date().timeIntervalSince(started) < 30, "ran on \(Date().timeIntervalSince(started)) s: \(result.stderr)")
        #expect(result.status == SIGINT, "status \(result.status): \(result.stderr)")
        let left = ScriptSession.survivors(ofGroup: group)
        #expect(left.isEmpty, "outlived Scripts/load: \(left)")
    }

    @Test("Ctrl-C while Scripts/bench builds, the build going on to its end as SwiftPM does while it waits for another build's lock: the script ends when the build returns, running nothing more")
    func benchInterruptedInItsBuild() throws {
        // A stand-in for swift (`swift test` holds SwiftPM's lock here): it sends its group Ctrl-C as
        // it starts, as a terminal would, and takes it as SwiftPM in its lock wait does: builds on, exit 0.
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try ScriptSession.standInSwift(in: dir, body: "trap '' INT\necho \"swift $*\"\n"
            + "kill -INT -$(ps -o pgid= -p $$ | tr -d ' ')\nsleep 2")
        let (result, group) = try ScriptSession.run(["\(Self.scripts.path)/bench", "link-cost"], environment: path,
                                                 timeout: 60, signal: (after: 50, number: 0))   // 0 sends nothing
        try #require(group > 0, "\(result.stderr)")
        #expect(result.status == SIGINT, "status \(result.status): \(result.stdout) \(result.stderr)")
        #expect(result.stdout.components(separatedBy: "swift ").count == 2, "ran on after the first build: \(result.stdout)")
        #expect(ScriptSession.survivors(ofGroup: group).isEmpty)
    }

    @Test("Scripts/bench recovery stopped at a random moment: the table so far, exit 0, no Xvfb, socket, lock, load or folder",
          arguments: [SIGTERM, SIGINT])
    func recovery(signal: Int32) throws {
        try #require(Desktop.Kind.xvfb.isInstalled, "Xvfb is not installed")
        let before = Set(((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("cadence-recovery.") })
        let (result, group) = try ScriptSession.run([
            "\(Self.scripts.path)/bench-recovery", "--bin", Subprocess.productsDirectory.path, "--rounds", "2",
            "--fps", "0", "--seconds", "9", "--load-at", "1", "--load-seconds", "4",
        ], timeout: 90, signal: (after: Double.random(in: 0.5...8), number: signal))
        try #require(group > 0, "\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("recovery on xvfb"), "\(result.stdout)")
        #expect(result.stderr.contains("stopped by"), "\(result.stderr)")
        #expect(!result.stderr.contains("Traceback"), "\(result.stderr)")
        let left = ScriptSession.survivors(ofGroup: group)
        #expect(left.isEmpty, "left running: \(left)")
        // Its Xvfb (a session of its own) is display 300 + pid % 50.
        let display = 300 + group % 50
        let xvfb = ScriptSession.survivors(running: "Xvfb :\(display) ")
        #expect(xvfb.isEmpty, "Xvfb left running: \(xvfb)")
        for path in ["/tmp/.X11-unix/X\(display)", "/tmp/.X\(display)-lock"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) left")
        }
        let after = Set(((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("cadence-recovery.") })
        #expect(after.subtracting(before).isEmpty, "temporary folders left: \(after.subtracting(before))")
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

    /// Whether this checkout's vblank lab is set up (`Scripts/vblank-lab setup`):
    /// its virtme-ng and a vkms built, so that a run boots at once.
    private static var labIsSetUp: Bool {
        let lab = Desktop.repository.appendingPathComponent(".build-vblank-lab").path
        let built = ((try? FileManager.default.contentsOfDirectory(atPath: lab)) ?? []).contains {
            $0.hasPrefix("vkms-") && FileManager.default.fileExists(atPath: "\(lab)/\($0)/vkms.ko")
        }
        return built && FileManager.default.isExecutableFile(atPath: "\(lab)/venv/bin/vng")
    }

    @Test("Scripts/vblank-lab killed with SIGKILL while its guest boots: no vng, virtme-run or qemu of it soon after (10 s at most on a busy machine), no virtme file in /tmp",
          .enabled(if: labIsSetUp, "the vblank lab is not set up here (Scripts/vblank-lab setup)"))
    func labKilled() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-lab-kill-\(getpid())")
        let plan = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-lab-kill-\(getpid()).plan")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-lab-kill-\(getpid()).log")
        defer { for url in [out, plan, log] { try? FileManager.default.removeItem(at: url) } }
        try "echo booted\n".write(to: plan, atomically: true, encoding: .utf8)
        // virtme-run's file for the guest's status, in /tmp, which SIGTERM or SIGKILL would leave.
        func virtmeFiles() -> Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("virtme_ret") })
        }
        let filesBefore = virtmeFiles()
        // Spawned and waited for by its pid alone, its output to a file: the guest inherits
        // descriptors the lab was given, and Foundation's Process would wait for the guest too.
        let arguments = ["\(Self.scripts.path)/vblank-lab", "run", plan.path, out.path, "120", "60"]
        let environment = ProcessInfo.processInfo.environment.merging(["VBLANK_LAB_LOCKED": ""]) { $1 }.map { "\($0)=\($1)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil], envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var lab: pid_t = 0
        try #require(posix_spawn(&lab, arguments[0], &actions, nil, argv, envp) == 0)
        // Killed once the guest's qemu runs, at a random moment of the next 3 s: its boot
        // alone takes longer (15 s with KVM, half a minute or more emulated).
        var booting: [String] = [], status: Int32 = 0, ended = false
        let deadline = Date().addingTimeInterval(60)
        while booting.isEmpty && !ended && Date() < deadline {
            booting = ScriptSession.running(out.path).filter { $0.contains("qemu-system") }
            ended = waitpid(lab, &status, WNOHANG) == lab
            usleep(100_000)
        }
        if !ended {
            usleep(useconds_t.random(in: 0...3_000_000))
            kill(lab, SIGKILL)
            waitpid(lab, &status, 0)
        }
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        // Exit status 75 (status 75 << 8): another lab holds this checkout's lab.
        try #require(status != 75 << 8, "another vblank lab holds this checkout's lab: \(said)")
        try #require(!booting.isEmpty, "the guest's qemu never ran: \(said)")
        // Each of the guest's processes names the output folder on its command line.
        let left = ScriptSession.survivors(running: out.path, seconds: 10)
        #expect(left.isEmpty, "outlived the lab: \(left)")
        #expect(virtmeFiles().subtracting(filesBefore).isEmpty, "left in /tmp: \(virtmeFiles().subtracting(filesBefore))")
        // Whatever the result, nothing is left for the next test.
        for entry in ScriptSession.running(out.path) { kill(pid_t(entry.prefix { $0 != ":" }) ?? 0, SIGKILL) }
    }

    @Test("A second vblank lab while one holds the lab: refused with 75 and a message, nothing touched")
    func labLock() throws {
        let lab = Desktop.repository.appendingPathComponent(".build-vblank-lab")
        try FileManager.default.createDirectory(at: lab, withIntermediateDirectories: true)
        // Holds the lock as a lab would, on an open file of this process, released when it closes
        // (or finds a real lab holding it: refused all the same).
        let lock = open(lab.appendingPathComponent("lock").path, O_RDWR | O_CREAT, 0o644)
        try #require(lock >= 0, "cannot open the lab's lock: errno \(errno)")
        defer { close(lock) }
        _ = flock(lock, LOCK_EX | LOCK_NB)
        let result = try Subprocess.runExecutable("\(Self.scripts.path)/vblank-lab", ["accelerator"],
                                                  environment: ["VBLANK_LAB_LOCKED": ""], timeout: 30)
        #expect(result.status == 75, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("another vblank-lab"), "\(result.stderr)")
    }
}
