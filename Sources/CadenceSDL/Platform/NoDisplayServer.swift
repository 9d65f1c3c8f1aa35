/// No window can be shown: no display server is named in the environment,
/// the one named cannot be reached, or SDL found only a driver that shows
/// nothing. Thrown by ``GameWindow/init(title:width:height:fullscreen:vsync:rateLimit:video:)``;
/// its description says what is missing and what to run instead, so that a
/// game prints it as it is.
public struct NoDisplayServer: Error, CustomStringConvertible, Sendable {
    /// What is missing: `DISPLAY and WAYLAND_DISPLAY are unset`, or which
    /// server could not be reached and SDL's words for why.
    public let reason: String
    /// The program's name, for the command to run instead.
    public let program: String

    /// `no display server: DISPLAY and WAYLAND_DISPLAY are unset. Run it in a
    /// desktop session, or in a virtual X server: xvfb-run -a mygame`.
    public var description: String {
        "no display server: \(reason). Run it in a desktop session, or in a virtual X server: xvfb-run -a \(program)"
    }

    /// The error for the environment as it is now, given what SDL said (nil:
    /// SDL was not asked, since no server is named).
    @_spi(Programs) public init(sdlSaid: String?) {
        let environment = processEnvironment()
        let named = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let servers = [named("DISPLAY").map { "the X server at DISPLAY=\($0)" },
                       named("WAYLAND_DISPLAY").map { "the Wayland compositor at WAYLAND_DISPLAY=\($0)" },
                       named("SDL_VIDEODRIVER").map { "SDL_VIDEODRIVER=\($0)" }].compactMap { $0 }
        if servers.isEmpty {
            reason = "DISPLAY and WAYLAND_DISPLAY are unset"
        } else {
            reason = servers.joined(separator: " and ") + " could not be reached" + (sdlSaid.map { " (\($0))" } ?? "")
        }
        program = Self.programName
    }

    /// Whether the environment names any display server (or an SDL driver) at all.
    @_spi(Programs) public static var anyNamed: Bool {
        let environment = processEnvironment()
        return ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// The last path component of the program's own path (`argv[0]`).
    private static var programName: String {
        let path = CommandLine.arguments.first ?? "game"
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
