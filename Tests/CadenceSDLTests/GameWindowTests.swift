@_spi(Programs) import Cadence
import CSDL2
import Testing
@_spi(Programs) @testable import CadenceSDL

/// A client that draws a frame of one colour and stops after `frames`.
private final class CountingGame: FrameLoopClient {
    let game: GameWindow
    let frames: Int
    var rates: [Double] = []

    init(_ game: GameWindow, frames: Int) {
        self.game = game
        self.frames = frames
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        rates.append(frame.effectiveRate.rate.hz)
        game.renderer.clear(Color(0, 90, 200))
        if rates.count == frames { loop.link.invalidate() }
    }
}

/// A client that notes, every frame, the thread's scheduling class and what the backend reports.
private final class ClassWatchingGame: FrameLoopClient {
    let game: GameWindow
    let frames: Int
    var inRealTimeClass: [Bool] = []
    var reported: [Bool] = []

    init(_ game: GameWindow, frames: Int) {
        self.game = game
        self.frames = frames
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        inRealTimeClass.append(RealTimeScheduling.isInEffect)
        reported.append(game.backend.raisedPriority)
        if inRealTimeClass.count == frames { loop.link.invalidate() }
    }
}

/// A client that reads events through the window, as the template does, and
/// notes each frame's rate and whether the link was paused after the poll.
private final class MovingGame: FrameLoopClient {
    let game: GameWindow
    /// Called before each frame's poll with the number of frames run so far.
    let script: (Int) -> Void
    var rates: [Double] = []
    var pausedAfterPoll: [Bool] = []

    init(_ game: GameWindow, script: @escaping (Int) -> Void) {
        self.game = game
        self.script = script
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        script(rates.count)
        _ = game.pollEvents()
        pausedAfterPoll.append(loop.link.isPaused)
        return rates.count < 15
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        rates.append(frame.effectiveRate.rate.hz)
    }

    func idle(_ loop: FrameLoop) -> Bool { true }
}

/// Queues a window event for `window`, as the window manager would.
private func pushWindowEvent(_ id: SDL_WindowEventID, _ window: Window) {
    var e = SDL_Event()
    e.window.type = SDL_WINDOWEVENT.rawValue
    e.window.event = UInt8(id.rawValue)
    e.window.windowID = SDL_GetWindowID(window.handle)
    SDL_PushEvent(&e)
}

extension SDLSuites {
    @MainActor
    @Suite("GameWindow, on the offscreen driver")
    struct GameWindowSetUp {
        @Test("One call wires a window, a renderer, the backend and the link; the raw handles are SDL's")
        func wiring() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let game = try GameWindow(session: session, title: "test", width: 64, height: 48, vsync: .on,
                                      headless: true, rateLimit: .cap(30))
            // Headless: the software renderer, no vsync, no display to detect.
            #expect(game.renderer.isSoftware && game.renderer.vsync == .off)
            #expect(game.display.info == nil && game.display.report == nil)
            #expect(game.display.summary.hasPrefix("headless"))
            #expect(game.backend.variableRefresh == nil)
            #expect(game.link.jitterTolerance == SDLBackend.jitterTolerance)
            #expect(game.link.preferredFrameRateRange == FrameRateRange(minimum: 0, maximum: 30, preferred: 30))
            #expect(game.backend.renderer === game.renderer && game.renderer.window === game.window)
            // The handles are the live SDL objects.
            #expect(SDL_GetWindowID(game.window.handle) != 0)
            var w: Int32 = 0, h: Int32 = 0
            #expect(SDL_GetRendererOutputSize(game.renderer.handle, &w, &h) == 0)
            #expect((w, h) == (64, 48))
        }

        @Test("Uncapped turns the renderer's vsync off, presents at once with no frame late, and another limit gives vsync back")
        func uncapped() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            // Not headless: the software renderer with vsync on (SDL paces it).
            let game = try GameWindow(session: session, title: "test", width: 64, height: 48, vsync: .on)
            try #require(game.renderer.vsync == .on)
            game.rateLimit = .uncapped
            #expect(game.renderer.vsync == .off)
            final class Recorder: FrameLoopClient {
                var records: [FrameRecord] = []
                func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {}
                func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
                    records.append(record)
                    if records.count == 30 { loop.link.invalidate() }
                }
            }
            let recorder = Recorder()
            game.run(recorder)
            // The target is when the link planned the frame, just before the callback started.
            #expect(recorder.records.allSatisfy { !$0.isPaced && !$0.isLate() })
            #expect(recorder.records.allSatisfy { $0.targetTimestamp <= $0.callbackStart && $0.presentTime >= $0.targetTimestamp })
            for (previous, record) in zip(recorder.records, recorder.records.dropFirst()) {
                #expect(record.delta == record.targetTimestamp - previous.targetTimestamp)
            }
            game.rateLimit = .cap(30)
            #expect(game.renderer.vsync == .on)
        }

        @Test("The title is the window's, as SDL reports it, and changes with it")
        func title() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let game = try GameWindow(session: session, title: "first", width: 64, height: 48, headless: true)
            #expect(game.title == "first" && String(cString: SDL_GetWindowTitle(game.window.handle)) == "first")
            game.title = "Level 2 — 59.9 FPS"
            #expect(String(cString: SDL_GetWindowTitle(game.window.handle)) == "Level 2 — 59.9 FPS")
            #expect(game.window.title == "Level 2 — 59.9 FPS")
        }

        @Test("It runs a client that writes only runFrame, at the cap")
        func runs() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let game = try GameWindow(session: session, title: "test", width: 64, height: 48, headless: true,
                                      rateLimit: .cap(100))
            let client = CountingGame(game, frames: 5)
            game.run(client)
            #expect(client.rates == Array(repeating: 100, count: 5))
        }

        @Test("The window records every frame for its statistics and draws the panel where it is asked to")
        func statistics() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let game = try GameWindow(session: session, title: "test", width: 640, height: 360, headless: true,
                                      rateLimit: .cap(100))
            game.run(CountingGame(game, frames: 5))
            #expect(game.statistics.runSummary.frames == 5)
            #expect(game.statisticsOverlay?.statistics.runSummary.frames == 5)
            game.renderer.clear(Color(10, 10, 10))
            let panel = game.drawStatistics(x: 20, y: 30)
            #expect(panel.x == 20 && panel.y == 30 && panel.width > 300)
            #expect(game.statisticsOverlay?.clockSource == game.backend.clockSource.rawValue)
            // The panel darkens what is under it: (10, 10, 10) at 170/255 black is (3, 3, 3).
            let image = try game.renderer.readPixels()
            #expect(image.rgb(x: 21, y: 31) == (3, 3, 3) && image.rgb(x: 19, y: 31) == (10, 10, 10))
        }

        @Test("The window's event poll pauses while hidden, and on a move or a display change paces on the display now behind it")
        func eventChores() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            // Not headless, so the display is read; no vsync, so the link paces by timer at the display's rate.
            let game = try GameWindow(session: session, title: "test", width: 64, height: 48, vsync: .off)
            func display(hz: Int) -> [DisplayInfo] {
                [DisplayInfo(index: game.window.displayIndex, name: "TEST \(hz)", bounds: Rect(x: 0, y: 0, width: 640, height: 480),
                             refreshHz: hz, modeWidth: 640, modeHeight: 480)]
            }
            game.display.readDisplays = { display(hz: 60) }
            game.display.refresh()
            let client = MovingGame(game) { frames in
                switch frames {
                case 3:
                    // Moved to a 75 Hz monitor.
                    game.display.readDisplays = { display(hz: 75) }
                    pushWindowEvent(SDL_WINDOWEVENT_MOVED, game.window)
                case 6:
                    // That monitor switched to 144 Hz.
                    game.display.readDisplays = { display(hz: 144) }
                    var e = SDL_Event()
                    e.display.type = SDL_DISPLAYEVENT.rawValue
                    SDL_PushEvent(&e)
                case 9 where !game.link.isPaused:
                    pushWindowEvent(SDL_WINDOWEVENT_HIDDEN, game.window)
                case 9:
                    pushWindowEvent(SDL_WINDOWEVENT_SHOWN, game.window)
                default: break
                }
            }
            game.run(client)
            #expect(client.rates == [60, 60, 60, 75, 75, 75, 144, 144, 144, 144, 144, 144, 144, 144, 144])
            // Hidden after the ninth frame: one turn paused, then shown again.
            #expect(client.pausedAfterPoll.filter { $0 }.count == 1)
            #expect(game.display.summary.hasPrefix("TEST 144, 144 Hz"))
        }

        @Test("Low latency puts the loop's thread in the real-time class where allowed, and the loop's end takes it out")
        func realTimeClassForLowLatency() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            // Whether this system lets the process have the class at all.
            let allowed = RealTimeScheduling.request() != .normal
            RealTimeScheduling.release()
            for raises in [true, false] {
                let game = try GameWindow(session: session, title: "test", width: 64, height: 48, headless: true,
                                          rateLimit: .cap(200))
                game.backend.scheduling.pacesInRealTime = false
                game.backend.raisesPriorityForLowLatency = raises
                game.loop.latency = .low
                let client = ClassWatchingGame(game, frames: 5)
                game.run(client)
                #expect(client.inRealTimeClass.count == 5)
                // What the backend reports is what the thread had, every frame; never without asking.
                #expect(client.inRealTimeClass == client.reported)
                #expect(client.inRealTimeClass == Array(repeating: raises && allowed, count: 5))
                #expect(!RealTimeScheduling.isInEffect && !game.backend.raisedPriority)
            }
        }

        @Test("A paced loop runs in the real-time class where allowed, an uncapped one never; both leave it after")
        func realTimeClassForPacing() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let allowed = RealTimeScheduling.request() != .normal
            RealTimeScheduling.release()
            for limit in [FrameRateLimit.cap(200), .uncapped] {
                let game = try GameWindow(session: session, title: "test", width: 64, height: 48, headless: true,
                                          rateLimit: limit)
                let client = ClassWatchingGame(game, frames: 5)
                game.run(client)
                let expected = allowed && limit != .uncapped
                #expect(client.inRealTimeClass == Array(repeating: expected, count: 5), "\(limit)")
                #expect(client.inRealTimeClass == client.reported)
                #expect(game.backend.scheduling.words == (expected ? "fifo (kernel)" : "normal")
                        || game.backend.scheduling.words == "normal")
                #expect(!RealTimeScheduling.isInEffect && !game.backend.raisedPriority)
            }
        }
    }
}
