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
        let probe = SDLProbe.run()
        let reports = detector.detect(
            displays: probe.displays, videoDriver: probe.videoDriver, windowFullscreen: fullscreen,
            override: VRROverride(rawValue: vrr) ?? .auto, overrideRange: vrrRange.flatMap(VRROverride.range(parsing:)))
        let listing = DisplayListing(probe: probe, reports: reports, connectors: detector.connectors())
        print(json ? listing.json.text : listing.text)
    }
}

/// What SDL says about the displays, or why it could not say anything.
struct SDLProbe {
    /// SDL's video driver; nil when SDL could not start.
    let videoDriver: String?
    /// The displays SDL reports.
    let displays: [DisplayInfo]
    /// Why there is nothing to show: SDL failed to start, or it sees no display.
    let problem: String?

    /// Starts SDL (honouring `SDL_VIDEODRIVER`), lists the displays and shuts SDL down again.
    static func run() -> SDLProbe {
        let session: SDLSession
        do {
            session = try SDLSession()
        } catch {
            return SDLProbe(videoDriver: nil, displays: [], problem: "SDL could not start video: \(error)")
        }
        defer { session.shutdown() }
        let displays = Displays.all()
        return SDLProbe(videoDriver: session.videoDriver, displays: displays,
                        problem: displays.isEmpty ? "SDL's \(session.videoDriver) driver reports no displays" : nil)
    }
}
