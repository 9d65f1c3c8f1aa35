import ArgumentParser
@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL

/// `display-probe [--json]`: every display SDL sees, with the detector's verdict.
struct ListDisplays: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "displays",
        abstract: "Lists each display: SDL's view and whether variable refresh is available and in effect."
    )

    @Flag(help: "Print one JSON object for scripts.")
    var json = false

    @Flag(help: "Decide as if the game's window were fullscreen (VRR needs it).")
    var fullscreen = false

    @Option(help: ArgumentHelp("Variable refresh: auto (detect), on (force) or off.", valueName: "mode"))
    var vrr = "auto"

    @Option(help: ArgumentHelp("Use this VRR range instead of the EDID's, e.g. 48-144.", valueName: "min-max"))
    var vrrRange: String?

    func validate() throws {
        guard VRROverride(rawValue: vrr) != nil else {
            throw ValidationError("--vrr: \"\(vrr)\" is not auto, on or off")
        }
        if let vrrRange, VRROverride.range(parsing: vrrRange) == nil {
            throw ValidationError("--vrr-range: \"\(vrrRange)\" is not <min>-<max> in Hz with 1 ≤ min < max ≤ 1023, e.g. 48-144")
        }
        if vrrRange != nil, vrr == VRROverride.off.rawValue {
            throw ValidationError("--vrr-range: has no effect with --vrr off; leave out one of them")
        }
    }

    func run() throws {
        let detector = VariableRefreshDetector()
        let probe: SDLProbe
        do { probe = try SDLProbe.run() } catch let failure as SDLProbe.Failure {
            printError(failure.message)
            throw ExitCode.failure
        }
        let reports = detector.detect(
            displays: probe.displays, videoDriver: probe.videoDriver, windowFullscreen: fullscreen,
            override: VRROverride(rawValue: vrr) ?? .auto, overrideRange: vrrRange.flatMap(VRROverride.range(parsing:)))
        let listing = DisplayListing(probe: probe, reports: reports, connectors: detector.connectors())
        print(json ? listing.json.text : listing.text)
    }
}

/// What SDL says about the displays, through the driver a game's `--video
/// auto` takes, so that the probe describes the output the game will use.
struct SDLProbe {
    /// SDL's video driver; nil when SDL could not start.
    let videoDriver: String?
    /// The displays SDL reports.
    let displays: [DisplayInfo]
    /// Why there is nothing to show: SDL sees no display.
    let problem: String?
    /// The scheduling class a paced game's loop would run in here (asked for
    /// on this thread, as `GameWindow` asks, and given back at once).
    let realTime: RealTimeScheduling.Grant

    /// No display to describe: none named, none reachable, a compositor the
    /// driver cannot start on, or SDL fell back to a driver that shows
    /// nothing. Its message says which.
    struct Failure: Error {
        let message: String
    }

    /// Starts SDL as `--video auto` does (honouring `SDL_VIDEODRIVER`), lists
    /// the displays and shuts SDL down again.
    static func run() throws -> SDLProbe {
        guard NoDisplayServer.anyNamed else { throw Failure(message: "\(NoDisplayServer(sdlSaid: nil))") }
        let session: SDLSession
        do {
            session = try VideoChoice.auto.openSession()
        } catch let error as SDLError {
            throw Failure(message: "\(NoDisplayServer(sdlSaid: error.message))")
        } catch {
            throw Failure(message: "\(error)")
        }
        defer { session.shutdown() }
        session.notes.forEach { printError($0) }
        guard session.showsWindows else {
            throw Failure(message: "\(NoDisplayServer(sdlSaid: "SDL found only \"\(session.videoDriver)\""))")
        }
        let displays = Displays.all()
        let realTime = RealTimeScheduling.request()
        RealTimeScheduling.release()
        return SDLProbe(videoDriver: session.videoDriver, displays: displays,
                        problem: displays.isEmpty ? "SDL's \(session.videoDriver) driver reports no displays" : nil,
                        realTime: realTime)
    }
}
