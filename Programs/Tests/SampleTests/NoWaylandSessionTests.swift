import Foundation
import Testing

/// Where no Wayland display can exist (no `WAYLAND_DISPLAY`, no `XDG_RUNTIME_DIR`),
/// neither Cadence's `--video auto` nor SDL's own driver fallback may try
/// Wayland: libwayland would print "error: XDG_RUNTIME_DIR is invalid or not
/// set in the environment." before the program's own message.
@Suite("Without a Wayland session")
struct NoWaylandSessionTests {
    /// The cases a user meets: no display at all, an X display nobody serves,
    /// and a virtual X server with no runtime directory.
    enum Setting: CaseIterable, CustomStringConvertible {
        case noDisplay, absentXServer, xvfbWithoutRuntimeDirectory
        var description: String {
            switch self {
            case .noDisplay: "no DISPLAY"
            case .absentXServer: "DISPLAY naming no server"
            case .xvfbWithoutRuntimeDirectory: "xvfb-run, XDG_RUNTIME_DIR unset"
            }
        }
    }

    @Test("The first line on stderr is the program's own", arguments: ["spinning-sprite", "template"], Setting.allCases)
    func firstLineIsOwn(program: String, setting: Setting) throws {
        let binary = Subprocess.productsDirectory.appendingPathComponent(program).path
        var arguments = ["-u", "WAYLAND_DISPLAY", "-u", "WAYLAND_SOCKET", "-u", "XDG_RUNTIME_DIR", "-u", "SDL_VIDEODRIVER"]
        switch setting {
        case .noDisplay: arguments += ["-u", "DISPLAY", binary]
        case .absentXServer: arguments += ["DISPLAY=\(Subprocess.unservedXDisplay)", binary]
        case .xvfbWithoutRuntimeDirectory: arguments += ["/usr/bin/xvfb-run", "-a", "-s", "-screen 0 1280x720x24", binary]
        }
        let result = try Subprocess.runExecutable("/usr/bin/env", arguments + ["--frames", "5"], timeout: 60)
        #expect(!result.stderr.contains("XDG_RUNTIME_DIR"), "stderr: \(result.stderr)")
        if setting == .xvfbWithoutRuntimeDirectory {
            // It runs, in an X11 window, with nothing to say on stderr but, on a machine with no
            // sound card or sound server (this session has no runtime folder for one), that sound is off.
            let said = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("sound off: ") }
            #expect(result.status == 0 && said.isEmpty, "exit \(result.status), stderr: \(result.stderr)")
        } else {
            let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(firstLine.hasPrefix("\(program): "), "stderr: \(result.stderr)")
            #expect(result.status == 1)
        }
    }
}
