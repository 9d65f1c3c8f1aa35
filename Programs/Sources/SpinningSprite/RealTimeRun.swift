import ArgumentParser
@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// A real window (or an offscreen one with `--headless`), paced in real time.
@MainActor
struct RealTimeRun {
    let options: RunOptions
    let outputs: Outputs

    func run() throws {
        let session = try openSession()
        defer { session.shutdown() }
        let ending = RunEnding(screenshot: outputs.screenshot)
        let watchdog = ending.watchdog()
        // Watched from the moment SDL's video is up: SDL may never return from a window's start-up on a lost
        // display, or fail at once on it; the window's start-up ends the run through the watchdog then.
        watchdog.watch(DisplayConnection(session: session))
        let game = try GameWindow(session: session, title: "Cadence — spinning sprite", width: options.window.width,
                                  height: options.window.height, fullscreen: options.fullscreen,
                                  vsync: options.vsync, headless: options.headless, vrr: options.vrr,
                                  vrrRange: options.vrrRange, minimumSize: Scene.minimumSize, watchdog: watchdog)
        game.backend.holdsPresentsAtCompositor = options.commitTiming
        game.renderer.notes.forEach { printError($0) }
        let scene: Scene
        do {
            scene = try Scene(window: game.window, renderer: game.renderer, spritePath: options.spritePathBytes)
        } catch let font as FontUnavailable {
            printError("\(font)")
            throw ExitCode(access(font.path, R_OK) == 0 ? 65 : 66)
        } catch {
            throw options.spriteFailure(error)
        }
        let sprite = Game(config: options.config, scene: scene, trace: try outputs.openTrace(), start: outputs.start,
                          displayRate: Double(game.display.info?.refreshHz ?? 60)) { game.status }
        sprite.onDisplayChange = { change in
            switch change {
            case .toggleFullscreen:
                do { try game.setFullscreen(!game.window.isFullscreen) } catch { printError("\(error)") }
            case .cycleVSync:
                game.setVSync(game.renderer.nextVSyncMode)
                // Only the new mode's fallback, not the notes already printed at start.
                if let note = game.renderer.vsyncNote { printError(note) }
            }
        }
        // A lost compositor ends the run inside pollEvents (the watchdog's ending, RunEnding).
        sprite.pollEvents = { game.pollEvents() }
        Interrupts.finishAtExit {
            // Xlib's exit on a lost X server, which the watchdog may be ending the run for too: one of them does.
            guard watchdog.claimEnding() else { while true { pause() } }
            _ = RunEnding.finishWithoutDisplay(sprite, lost: "the display server went away", screenshot: outputs.screenshot)
        }
        ending.game = sprite
        ending.limit = options.config.limit
        ending.loopStart = MonotonicClock().now
        game.run(sprite)
        Interrupts.finishAtExit(nil)
        if let lost = game.lostDisplay {
            // SDL's teardown talks to the compositor that is gone: end here.
            let code = RunEnding.finishWithoutDisplay(sprite, lost: lost, screenshot: outputs.screenshot)
            fflush(nil)
            _exit(code)
        }
        try sprite.end(outputs)
        print("display clock: \(game.backend.clockDescription)")
        if let commits = game.backend.commitTiming { print("commits: \(commits)") }
        if let reason = ending.noFrameReason(sprite) {
            printError(reason)
            throw ExitCode(NoFrameRun.exitCode)
        }
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
        let environment = ProcessInfo.processInfo.environment
        let named = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        // Said before SDL is asked, so this is the first line the player reads
        // (SDL's Wayland attempt would print its own complaint first).
        if !options.headless, named("SDL_VIDEODRIVER") == nil, named("DISPLAY") == nil, named("WAYLAND_DISPLAY") == nil {
            printError("no display server: DISPLAY and WAYLAND_DISPLAY are unset.\n\(noDisplay)")
            throw ExitCode.failure
        }
        let servers = [named("DISPLAY").map { "the X server at DISPLAY=\($0)" },
                       named("WAYLAND_DISPLAY").map { "the Wayland compositor at WAYLAND_DISPLAY=\($0)" }]
            .compactMap { $0 }
        let unreachable = "no display server: "
            + (servers.isEmpty ? "SDL_VIDEODRIVER=\(named("SDL_VIDEODRIVER") ?? "")" : servers.joined(separator: " and "))
            + " could not be reached"
        let session: SDLSession
        do {
            session = options.headless ? try SDLSession(videoDriver: "offscreen") : try options.video.openSession()
        } catch let error as UnsuitableCompositor {
            // Under auto it was SDL_VIDEODRIVER that asked, and the error says so.
            printError(options.video == .auto ? "\(error)" : "\(error): --video x11 or auto")
            throw ExitCode.failure
        } catch {
            printError(options.headless ? "\(error)" : "\(unreachable) (\(error)).\n\(noDisplay)")
            throw ExitCode.failure
        }
        session.notes.forEach { printError($0) }
        if !options.headless && !session.showsWindows {
            session.shutdown()
            printError("\(unreachable) (SDL found only \"\(session.videoDriver)\").\n\(noDisplay)")
            throw ExitCode.failure
        }
        return session
    }
}

extension GameWindow {
    /// What the overlay shows now; the vsync note and the achievable rates
    /// follow the backend's vblank estimate as it settles.
    var status: DisplayStatus {
        let fallback = renderer.vsyncNote
        let size = renderer.outputSize
        let state = display.info == nil ? "offscreen \(size.width)x\(size.height)"
            : window.isFullscreen ? "fullscreen" : "windowed \(size.width)x\(size.height)"
        return DisplayStatus(summary: display.summary, window: state,
                             vsync: renderer.vsync.rawValue + (fallback.map { " (\($0))" } ?? "")
                                 + (backend.timingNote.map { " (\($0))" } ?? ""),
                             clock: backend.clockDescription,
                             achievableRates: backend.currentTiming().achievableRates,
                             realTimeClass: backend.raisedPriority)
    }
}
