@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL

/// `--simulate-display`: the game on a simulated display in virtual time.
///
/// Runs as fast as the CPU allows and draws nothing, unless a screenshot is
/// asked for: then the last frame is drawn offscreen and saved.
@MainActor
struct SimulationRun {
    let options: RunOptions
    let display: SimulatedDisplay.Panel
    let outputs: Outputs

    func run() throws {
        let simulated = SimulatedDisplay(
            panel: display,
            vsync: options.vsync != .off,
            fullscreen: options.fullscreen,
            allowsVariableRefresh: options.vrr != .off,
            changes: options.refreshChanges.map { (at: $0.at, panel: $0.value) }
        )
        let backend = SimulatedBackend(display: simulated)
        var session: SDLSession?
        var scene: Scene?
        if outputs.screenshot != nil {
            let sdl = try SDLSession(videoDriver: "offscreen")
            session = sdl
            let window = try Window(title: "spinning-sprite", width: options.window.width,
                                    height: options.window.height, hidden: true)
            let renderer = try Renderer(window: window, software: true, vsync: .off)
            do { scene = try Scene(window: window, renderer: renderer, spritePath: options.spritePathBytes) } catch {
                throw options.spriteFailure(error)
            }
        }
        defer { session?.shutdown() }

        let game = Game(config: options.config, scene: scene, trace: try outputs.openTrace(), start: outputs.start,
                        displayRate: display.modeRate?.hz ?? 60) {
            DisplayStatus(simulated: simulated, at: backend.clock.now)
        }
        let loop = FrameLoop(link: DisplayLink(), backend: backend)
        loop.run(game)
        try game.end(outputs)
    }
}

extension DisplayStatus {
    /// What the overlay says about a simulated display.
    init(simulated display: SimulatedDisplay, at now: Int64) {
        let timing = display.timing(at: now)
        switch display.panel {
        case .fixed(let rate):
            summary = "simulated, fixed \(rate)"
        case .variable(let minimum, let maximum):
            let why = display.isVariableRefreshActive ? "active"
                : !display.allowsVariableRefresh ? "inactive: --vrr off"
                : !display.vsync ? "inactive: vsync off" : "inactive: windowed"
            summary = "simulated, VRR \(Int(minimum.hz))–\(maximum), \(why)"
        case .unknown:
            summary = "simulated, refresh rate unknown (0 Hz): paced by timer"
        }
        window = display.isFullscreen ? "fullscreen" : "windowed"
        vsync = display.vsync ? "on" : "off"
        achievableRates = timing.achievableRates
    }
}
