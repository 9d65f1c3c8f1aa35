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
                                height: options.window.height, fitsDesktop: !options.headless, minimumSize: Scene.minimumSize,
                                fullscreen: options.fullscreen && !options.headless)
        // Headless there is no display and no vblank to wait for (SDL's software
        // renderer would fake one by sleeping to 60 Hz), so the timer paces alone.
        let renderer = try Renderer(window: window, software: options.headless,
                                    vsync: options.headless ? .off : options.vsync)
        renderer.notes.forEach { printError($0) }
        let scene: Scene
        do {
            scene = try Scene(window: window, renderer: renderer, spritePath: options.spritePath)
        } catch {
            printError("--sprite: cannot load \"\(options.spritePath)\": \(error)")
            throw ExitCode(65)
        }

        TimerSlack.minimize()
        let sleeper = PreciseSleeper(clock: clock, spin: SpinWait.pause)
        let backend = SDLBackend(renderer: renderer, clock: clock, refreshHz: 0) {
            _ = sleeper.wait(until: $0)
        }
        let display = WindowDisplay(window: window, videoDriver: session.videoDriver, backend: backend,
                                    options: options)
        let link = DisplayLink(jitterTolerance: SDLBackend.jitterTolerance)
        let game = Game(config: options.config, scene: scene, trace: try outputs.openTrace(), start: outputs.start,
                        displayRate: Double(display.info?.refreshHz ?? 60)) { display.status }
        game.onDisplayChange = { change in
            switch change {
            case .toggleFullscreen:
                do { try window.setFullscreen(!window.isFullscreen) } catch { printError("\(error)") }
            case .cycleVSync:
                renderer.setVSync(renderer.vsync.next)
                // Only the new mode's fallback, not the notes already printed at start.
                renderer.notes.filter { $0.hasPrefix("vsync") }.forEach { printError($0) }
            case .displayMoved:
                break
            }
            display.refresh()
        }
        let loop = FrameLoop(link: link, backend: backend)
        Interrupts.finishAtExit {
            printError("the display server went away: run ended")
            do { print(try game.finish()) } catch { printError("\(error)") }
        }
        loop.run(game)
        Interrupts.finishAtExit(nil)
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

/// The display under the game's window, as SDL and the VRR detector see it,
/// kept current: the game calls ``refresh()`` on a fullscreen toggle, a vsync
/// change, a window move or a display change, never per frame.
final class WindowDisplay {
    private let window: Window
    private let videoDriver: String
    private let backend: SDLBackend
    private let options: RunOptions
    private let detector = VariableRefreshDetector()
    /// SDL's facts about the window's display; nil headless.
    private(set) var info: DisplayInfo?
    /// The detector's report for it; nil headless.
    private(set) var report: DisplayVRRReport?
    private var summary = ""

    init(window: Window, videoDriver: String, backend: SDLBackend, options: RunOptions) {
        self.window = window
        self.videoDriver = videoDriver
        self.backend = backend
        self.options = options
        refresh()
    }

    /// Re-reads the display and re-detects variable refresh; the backend paces
    /// for VRR only when the detector says it is really in effect.
    func refresh() {
        if options.headless {
            info = nil
            report = nil
        } else {
            let displays = Displays.all()
            let index = window.displayIndex
            info = displays.first { $0.index == index }
            report = detector.detect(displays: displays, videoDriver: videoDriver, windowFullscreen: window.isFullscreen,
                                     override: options.vrr, overrideRange: options.vrrRange)
                .first { $0.display.index == index }
        }
        backend.variableRefresh = report?.decision.rangeInEffect
        backend.displayModeChanged(refreshHz: info?.refreshHz ?? 0)
        if options.headless {
            summary = "headless (offscreen), no refresh: paced by timer"
        } else if let info, let report {
            let rate = info.refreshHz > 0 ? "\(info.refreshHz) Hz" : "refresh rate unknown"
            let kind = report.decision.maximumRate == nil && report.decision.summary.hasPrefix("fixed")
                ? "fixed refresh" : report.decision.summary
            summary = "\(Self.readableName(info.name)), \(rate), \(kind)"
        } else {
            summary = "unknown display"
        }
    }

    /// SDL's display name without the stray quotes and colons some drivers
    /// leave in it (XWayland's read `XWAYLAND0 58":`).
    private static func readableName(_ name: String) -> String {
        let kept = name.filter { $0 != "\"" }.trimmingCharacters(in: CharacterSet(charactersIn: ": ").union(.whitespaces))
        return kept.isEmpty ? "display" : kept
    }

    /// What the overlay shows now; the vsync note and the achievable rates
    /// follow the backend's vblank estimate as it settles.
    var status: DisplayStatus {
        let renderer = backend.renderer
        let fallback = renderer.notes.first { $0.hasPrefix("vsync") }
        let size = renderer.outputSize
        return DisplayStatus(summary: summary,
                      window: options.headless ? "offscreen \(size.width)x\(size.height)"
                          : window.isFullscreen ? "fullscreen" : "windowed \(size.width)x\(size.height)",
                      vsync: renderer.vsync.rawValue + (fallback.map { " (\($0))" } ?? "")
                          + (backend.timingNote.map { " (\($0))" } ?? ""),
                      achievableRates: backend.currentTiming().achievableRates)
    }
}
