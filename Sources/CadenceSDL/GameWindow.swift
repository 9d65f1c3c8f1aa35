@_spi(Programs) import Cadence

/// Everything a game needs to run paced in a real window, set up in one call:
/// the SDL session, a window, a renderer with vsync, the monotonic clock, a
/// precise sleeper (spinning with the CPU's pause hint, the thread's timer
/// slack at its minimum), the backend with the VRR detector wired in, and a
/// frame loop whose link allows for present-time jitter.
///
/// ```swift
/// let game = try GameWindow(title: "My game", rateLimit: .cap(120))
/// game.run(MyGame(game))
/// game.shutdown()
/// ```
///
/// The parts stay reachable, down to the raw SDL handles
/// (``Window/handle``, ``Renderer/handle``) for games that call SDL directly.
public final class GameWindow {
    /// SDL's process-wide state.
    @_spi(Programs) public let session: SDLSession
    /// The window; ``Window/handle`` is the `SDL_Window *`.
    public let window: Window
    /// Its renderer; ``Renderer/handle`` is the `SDL_Renderer *`.
    public let renderer: Renderer
    /// Wall-clock time, monotonic: what every frame time is measured on.
    @_spi(Programs) public let clock: MonotonicClock
    /// How the loop waits for a deadline: sleeps, then spins the last stretch.
    @_spi(Programs) public let sleeper: PreciseSleeper
    /// The frame loop's real-time backend.
    @_spi(Programs) public let backend: SDLBackend
    /// The display under the window; `WindowDisplay.refresh(moved:)` after the window changes.
    @_spi(Programs) public let display: WindowDisplay
    /// The loop that drives the game.
    public let loop: FrameLoop
    private let ownsSession: Bool
    /// The window's connection to its display server.
    let connection: DisplayConnection
    /// The run's statistics, every frame as it reached the glass: `print(window.statistics.runSummary)` at the end.
    public private(set) var statistics = FrameStatistics()
    /// The statistics panel ``drawStatistics(x:y:)`` draws; nil where its
    /// font cannot be opened (`fonts-dejavu-core`, which Scripts/setup installs).
    @_spi(Programs) public let statisticsOverlay: StatisticsOverlay?
    /// Why there is no statistics panel (the font and its package), for the player; nil when there is one.
    public let statisticsUnavailable: String?

    /// The display link planning each frame.
    @_spi(Programs) public var link: DisplayLink { loop.link }

    /// How fast to run: the display's rate, a cap, a range or adaptive.
    public var rateLimit: FrameRateLimit { get { loop.rateLimit } set { loop.rateLimit = newValue } }

    /// The window's title, for a game to change as it goes (a level, a score).
    public var title: String { get { window.title } set { window.title = newValue } }

    /// Opens SDL (with `video`'s driver: by default native Wayland where the
    /// compositor offers presentation-time, else X11; see ``VideoChoice``) and
    /// a window on it. Throws ``NoDisplayServer`` when there is no display
    /// server, including when SDL finds only a driver that shows nothing, and
    /// ``UnsuitableCompositor`` when `video` asks for what the compositor lacks.
    ///
    /// The display's connection is watched from the moment SDL's video is up:
    /// if it is lost (the compositor went away, or closed the connection),
    /// the game ends within a second, even where SDL never returns, with the
    /// statistics' summary on standard output, what was lost on standard
    /// error and exit status 1.
    public convenience init(title: String, width: Int = 1280, height: Int = 720, fullscreen: Bool = false,
                            vsync: VSyncMode = .on, rateLimit: FrameRateLimit = .displayRate,
                            video: VideoChoice = .auto) throws {
        // Said before SDL is asked: its own attempt would name a driver, which reads like a missing package.
        guard NoDisplayServer.anyNamed else { throw NoDisplayServer(sdlSaid: nil) }
        let session: SDLSession
        do { session = try video.openSession() } catch let error as SDLError {
            throw NoDisplayServer(sdlSaid: error.message)
        }
        guard session.showsWindows else {
            session.shutdown()
            throw NoDisplayServer(sdlSaid: "SDL found only \"\(session.videoDriver)\"")
        }
        // Watched from here on: a display lost while SDL makes the window ends the game (LostDisplayEnding).
        let ending = LostDisplayEnding()
        let watchdog = ending.watchdog()
        watchdog.watch(DisplayConnection(session: session))
        try self.init(session: session, ownsSession: true, title: title, width: width, height: height,
                      fullscreen: fullscreen, vsync: vsync, rateLimit: rateLimit, watchdog: watchdog)
        ending.window = self
    }

    /// A window on a session the caller opened (and will shut down).
    ///
    /// - Parameters:
    ///   - session: the SDL session, open; the caller shuts it down after the window.
    ///   - title: the window's title.
    ///   - width: the window's width in pixels.
    ///   - height: the window's height in pixels.
    ///   - fullscreen: whether the window starts in desktop fullscreen.
    ///   - vsync: the renderer's vsync mode (see ``Renderer/setVSync(_:)`` for fallbacks).
    ///   - headless: the session runs the offscreen driver: the software
    ///     renderer and no vsync, since there is no vblank to wait for (SDL's
    ///     software renderer would fake one by sleeping to 60 Hz).
    ///   - vrr: the player's override of the VRR detector.
    ///   - vrrRange: the player's VRR range, where the detector cannot read one.
    ///   - minimumSize: the smallest size the player can resize the window to.
    ///   - rateLimit: how fast the game runs (``GameWindow/rateLimit``).
    ///   - watchdog: the program's own, watching the window's start-up and
    ///     its presents; a display lost meanwhile ends the run through it.
    @_spi(Programs) public convenience init(session: SDLSession, title: String, width: Int = 1280, height: Int = 720,
                            fullscreen: Bool = false, vsync: VSyncMode = .on, headless: Bool = false,
                            vrr: VRROverride = .auto, vrrRange: ClosedRange<FrameRate>? = nil,
                            minimumSize: (width: Int, height: Int)? = nil,
                            rateLimit: FrameRateLimit = .displayRate, watchdog: PresentWatchdog? = nil) throws {
        try self.init(session: session, ownsSession: false, title: title, width: width, height: height,
                      fullscreen: fullscreen, vsync: vsync, headless: headless, vrr: vrr, vrrRange: vrrRange,
                      minimumSize: minimumSize, rateLimit: rateLimit, watchdog: watchdog)
    }

    private init(session: SDLSession, ownsSession: Bool, title: String, width: Int, height: Int,
                 fullscreen: Bool, vsync: VSyncMode, headless: Bool = false, vrr: VRROverride = .auto,
                 vrrRange: ClosedRange<FrameRate>? = nil, minimumSize: (width: Int, height: Int)? = nil,
                 rateLimit: FrameRateLimit, watchdog: PresentWatchdog? = nil) throws {
        self.session = session
        self.ownsSession = ownsSession
        // SDL may never come back from making a window on a lost display (under watch when there is a watchdog),
        // the graphics driver may crash on it, or SDL fail at once ("EGL not initialized"): the loss is said.
        let startUp = DisplayConnection(session: session)
        func guarded<Made>(_ make: () throws -> Made) throws -> Made {
            guard let watchdog else { return try startUp.guardingFaults(make) }
            do { return try watchdog.guarding { try startUp.guardingFaults(make) } } catch {
                watchdog.endIfLost(waitingUpTo: .milliseconds(500))
                throw error
            }
        }
        // Placed inside the usable desktop (a 1280x720 window on a 1280x720 screen with a panel would not fit).
        let window = try guarded {
            try Window(title: title, width: width, height: height, fitsDesktop: !headless,
                       minimumSize: minimumSize, fullscreen: fullscreen && !headless)
        }
        self.window = window
        // Watched from here, libwayland's error state too: a connection closed as SDL started spun the renderer's start-up.
        connection = DisplayConnection(window: window)
        watchdog?.watch(connection)
        renderer = try guarded { try Renderer(window: window, software: headless, vsync: headless ? .off : vsync) }
        renderer.watchdog = watchdog
        clock = MonotonicClock()
        // Controllers plugged in arrive as events; a machine with none (or no joystick support) runs the same.
        GameControllers.start()
        // Sleeps end nearer their deadlines, so the sleeper spins less.
        TimerSlack.minimize()
        let sleeper = PreciseSleeper(clock: clock, spin: SpinWait.pause)
        self.sleeper = sleeper
        backend = SDLBackend(renderer: renderer, clock: clock, refreshHz: 0) { _ = sleeper.wait(until: $0) }
        display = WindowDisplay(window: window, videoDriver: session.videoDriver, backend: backend,
                                headless: headless, vrr: vrr, vrrRange: vrrRange)
        loop = FrameLoop(link: DisplayLink(jitterTolerance: SDLBackend.jitterTolerance), backend: backend)
        loop.rateLimit = rateLimit
        do {
            statisticsOverlay = try StatisticsOverlay(renderer: renderer, fontSize: width < 1000 ? 13 : 14)
            statisticsUnavailable = nil
        } catch {
            statisticsOverlay = nil
            statisticsUnavailable = "no statistics panel: \(error)"
        }
    }

    /// One frame reached the glass (its glass time final): the window's
    /// statistics and the overlay's figures take it.
    func frameReachedGlass(_ record: FrameRecord) {
        statistics.record(record)
        statisticsOverlay?.record(record)
    }

    /// Draws the statistics panel (`StatisticsOverlay`) at (x, y) in the
    /// window's pixels, whatever the game's logical size, over what the frame
    /// drew so far: call it last in the frame's drawing. The frames it
    /// reports are recorded whether it is drawn or not. Returns where it was
    /// drawn, in window pixels (nothing without its font).
    @discardableResult
    public func drawStatistics(x: Int = 12, y: Int = 12) -> Rect {
        guard let overlay = statisticsOverlay else { return Rect(x: x, y: y, width: 0, height: 0) }
        overlay.clockSource = backend.clockDescription
        overlay.scheduling = backend.scheduling.words
        let panel = overlay.draw(x: x, y: y)
        overlay.endFrame()
        return panel
    }

    /// Every pending event, after the window's chores: the link paused while
    /// the window is hidden (no frames, no CPU) and resumed when it is shown,
    /// and the display read again when the window moves or a display changes,
    /// so the loop paces for the monitor the window is on now. The game still
    /// sees every event.
    public func pollEvents() -> [Event] {
        // SDL reads the display's connection here too: watched as a present is, a long wait told.
        let start = clock.now
        let events = renderer.watchdog.map { $0.guarding(EventPump.poll) } ?? EventPump.poll()
        backend.displayWaited(clock.now - start)
        renderer.watchdog?.endIfLost()   // a broken connection's events (a quit among them) are not the player's
        for event in events { handle(event) }
        return events
    }

    /// The chores for one event (see ``pollEvents()``).
    func handle(_ event: Event) {
        switch event {
        case .hidden: link.isPaused = true
        case .shown:
            link.isPaused = false
            // The time hidden is not a frame interval (nor a hitch).
            statistics.resetInterval()
            statisticsOverlay?.resetInterval()
        case .moved, .displayChanged: display.refresh(moved: true)
        default: break
        }
    }

    /// Runs `client` until it ends the loop, on the main actor (see `FrameLoopClient`), keeping the
    /// window's ``statistics`` as frames reach the glass (run through here, not the loop itself, for them),
    /// after the renderer's warm-up and the window's first picture (`SDLBackend.prepareFirstFrame()`). A paced loop runs in the
    /// real-time class where allowed (`SDLBackend.scheduling`).
    @MainActor
    public func run(_ client: FrameLoopClient) {
        backend.scheduling.during { backend.prepareFirstFrame(); loop.run(WindowClient(window: self, game: client)) }
    }

    /// Switches between windowed and desktop fullscreen (which VRR needs),
    /// and re-detects the display.
    public func setFullscreen(_ on: Bool) throws {
        try window.setFullscreen(on)
        display.refresh()
    }

    /// Switches vsync (see ``Renderer/setVSync(_:)`` for fallbacks) and
    /// starts the vblank estimate over; returns the mode in effect.
    @discardableResult
    public func setVSync(_ mode: VSyncMode) -> VSyncMode {
        let inEffect = renderer.setVSync(mode)
        display.refresh()
        return inEffect
    }

    /// What was lost when the window's display connection broke, e.g. "the
    /// Wayland compositor at WAYLAND_DISPLAY=wayland-0 went away"; nil while it
    /// holds (see `DisplayConnection`).
    public var lostDisplay: String? { connection.lost }

    /// Quits SDL if this window opened the session; call last.
    public func shutdown() {
        // SDL's teardown would talk to a server that is gone.
        renderer.watchdog?.endIfLost()
        if ownsSession { session.shutdown() }
    }
}
