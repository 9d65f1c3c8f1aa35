import Foundation
import Testing

/// `Scripts/bench compositor` end to end on a private headless Weston: the
/// bench's rounds, then Weston's own record of them read from the log the
/// desktop wrote. The script's builds are left to a stand-in `swift` that
/// names the programs this test run built (SwiftPM's own would wait for the
/// lock `swift test` holds on the build folder) and, as SwiftPM does, leaves
/// a folder in `TMPDIR` each time: none of them may outlive the script.
@Suite("Scripts/bench compositor runs whole", .serialized,
       .enabled(if: Desktop.Kind.weston.isInstalled, "Weston is not installed (Scripts/setup)"))
struct BenchCompositorTests {
    @Test("Two rounds on Weston: exit 0, the table, the rates on Weston's timeline from its log, no build's folder left")
    func twoRounds() throws {
        let dir = try Subprocess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let swift = dir.appendingPathComponent("swift")
        let folders = dir.appendingPathComponent("folders")
        let script = "#!/bin/sh\nmktemp -d >>'\(folders.path)'\n"
            + "case \"$*\" in *--show-bin-path*) echo '\(Subprocess.productsDirectory.path)' ;; esac\n"
        try script.write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        let path = dir.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try Subprocess.runExecutable(Desktop.repository.appendingPathComponent("Scripts/bench").path,
                                                  ["compositor", "--seconds", "2"], environment: ["PATH": path], timeout: 240)
        #expect(result.status == 0, "status \(result.status): \(result.stdout) \(result.stderr)")
        #expect(!result.stderr.contains("Traceback"), "\(result.stderr)")
        #expect(result.stdout.contains("on Weston's timeline"), "\(result.stdout)")
        let made = try String(contentsOf: folders, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(!made.isEmpty)
        #expect(made.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "left: \(made)")
    }
}
