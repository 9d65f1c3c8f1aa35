import ArgumentParser
import Cadence
import CadenceSDL
import Foundation

/// A real window (or an offscreen one with `--headless`), paced in real time.
struct RealTimeRun {
    let options: RunOptions
    let outputs: Outputs
    let clock: MonotonicClock

    func run() throws {
        let session = try openSession()
        defer { session.shutdown() }
        let window = try Window(title: "Cadence — spinning sprite", width: options.window.width,
                                height: options.window.height, fullscreen: options.fullscreen && !options.headless)
        let renderer = try Renderer(window: window, software: options.headless, vsync: options.vsync)
        renderer.notes.forEach { printError($0) }
        let scene: Scene
        do {
            scene = try Scene(window: window, renderer: renderer, spritePath: options.spritePath)
        } catch {
            printError("cannot load the game's assets: \(error)")
            throw ExitCode.failure
        }

        let sleeper = PreciseSleeper(clock: clock)
        let displayInfo = Displays.info(window.displayIndex)
        let backend = SDLBackend(renderer: renderer, clock: clock, refreshHz: options.headless ? 0 : displayInfo?.refreshHz ?? 0) {
            _ = sleeper.wait(until: $0)
        }
        let link = DisplayLink(jitterTolerance: 200_000)
        let game = Game(config: options.config, scene: scene, trace: outputs.traceWriter, start: outputs.start,
                        displayRate: Double(displayInfo?.refreshHz ?? 60)) {
            DisplayStatus(backend: backend, display: Displays.info(window.displayIndex), headless: options.headless)
        }
        game.onDisplayChange = { change in
            switch change {
            case .toggleFullscreen:
                try? window.setFullscreen(!window.isFullscreen)
            case .cycleVSync:
                renderer.setVSync(renderer.vsync.next)
            case .displayMoved:
                break
            }
            backend.displayModeChanged(refreshHz: options.headless ? 0 : Displays.info(window.displayIndex)?.refreshHz ?? 0)
        }
        let loop = FrameLoop(link: link, backend: backend)
        loop.run(game)
        if let path = outputs.screenshot {
            try game.saveScreenshot(to: path)
            print("screenshot saved to \(path)")
        }
        print(try game.finish())
    }

    /// SDL with a display server, or the offscreen driver when headless.
    ///
    /// Without `--headless`, SDL falling back to a driver that shows nothing
    /// (offscreen, dummy) counts as "no display": a window nobody can see is
    /// not what the player asked for, unless `SDL_VIDEODRIVER` asked for it.
    private func openSession() throws -> SDLSession {
        let noDisplay = """
            Run with --headless to render offscreen, or inside a virtual X server: xvfb-run -a spinning-sprite
            """
        let session: SDLSession
        do {
            session = try SDLSession(videoDriver: options.headless ? "offscreen" : nil)
        } catch {
            printError(options.headless ? "\(error)" : "no display server (\(error)).\n\(noDisplay)")
            throw ExitCode.failure
        }
        let invisible = ["offscreen", "dummy"].contains(session.videoDriver)
        let requested = ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"].map { !$0.isEmpty } ?? false
        if !options.headless && invisible && !requested {
            session.shutdown()
            printError("no display server (DISPLAY and WAYLAND_DISPLAY are unset; SDL found only \"\(session.videoDriver)\").\n\(noDisplay)")
            throw ExitCode.failure
        }
        return session
    }
}

extension DisplayStatus {
    /// What the overlay says about a real display.
    init(backend: SDLBackend, display: DisplayInfo?, headless: Bool) {
        let timing = backend.currentTiming()
        if headless {
            summary = "headless (offscreen), no refresh: paced by timer"
        } else if let display {
            summary = "\(display.name), fixed \(display.refreshHz > 0 ? "\(display.refreshHz) Hz" : "rate unknown")"
        } else {
            summary = "unknown display"
        }
        vsync = backend.renderer.vsync.rawValue + (backend.timingNote.map { " (\($0))" } ?? "")
        achievableRates = timing.achievableRates
    }
}
