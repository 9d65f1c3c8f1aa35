import Foundation
import Testing

/// A Wayland socket that accepts and never answers (or answers garbage) is
/// no compositor: the sample treats it as absent within about a second,
/// never waiting on it for ever, and says so.
@Suite("A compositor that does not answer")
struct UnansweringCompositorTests {
    /// The socket, and an Xvfb for the X11 the sample falls back to.
    private func setUp(garbage: Bool) throws -> (socket: SilentSocket, desktop: Desktop) {
        let dir = try Subprocess.temporaryDirectory()
        return (try SilentSocket(in: dir, name: "wayland-silent", garbage: garbage), try Desktop(.xvfb))
    }

    @Test("--video auto falls back to X11 with a note", arguments: [false, true])
    func autoFallsBack(garbage: Bool) throws {
        try #require(Desktop.Kind.xvfb.isInstalled, "Xvfb is not installed")
        let (socket, desktop) = try setUp(garbage: garbage)
        defer { socket.close(); desktop.stop() }
        let started = Date()
        let result = try Subprocess.run("spinning-sprite", ["--frames", "10"],
                                        environment: ["WAYLAND_DISPLAY": socket.path, "DISPLAY": desktop.display,
                                                      "SDL_VIDEODRIVER": ""], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("did not answer within a second: using X11"), "\(result.stderr)")
        #expect(result.stdout.contains("frames 10"), "\(result.stdout)")
        #expect(Date().timeIntervalSince(started) < 20, "the probe waited far past its second")
    }

    @Test("--video wayland exits 1 naming the compositor; with no X server --video auto exits 1",
          arguments: [false, true])
    func refused(garbage: Bool) throws {
        try #require(Desktop.Kind.xvfb.isInstalled, "Xvfb is not installed")
        let (socket, desktop) = try setUp(garbage: garbage)
        defer { socket.close(); desktop.stop() }
        let wayland = try Subprocess.run("spinning-sprite", ["--video", "wayland", "--frames", "10"],
                                         environment: ["WAYLAND_DISPLAY": socket.path, "DISPLAY": desktop.display,
                                                       "SDL_VIDEODRIVER": ""], timeout: 30)
        #expect(wayland.status == 1, "\(wayland.stderr)")
        #expect(wayland.stderr.contains("WAYLAND_DISPLAY=\(socket.path) did not answer"), "\(wayland.stderr)")
        let noX = try Subprocess.run("spinning-sprite", ["--frames", "10"],
                                     environment: ["WAYLAND_DISPLAY": socket.path, "DISPLAY": "", "SDL_VIDEODRIVER": ""],
                                     timeout: 30)
        #expect(noX.status == 1, "\(noX.stderr)")
        #expect(noX.stderr.contains("could not be reached"), "\(noX.stderr)")
    }
}
