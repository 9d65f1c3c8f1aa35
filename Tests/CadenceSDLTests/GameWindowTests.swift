import Cadence
import CSDL2
import Testing
@testable import CadenceSDL

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
        game.renderer.beginFrame()
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

extension SDLSuites {
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

        @Test("Low latency puts the loop's thread in the real-time class where allowed, and the loop's end takes it out")
        func realTimeClassForLowLatency() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            // Whether this system lets the process have the class at all.
            let allowed = RealTimeScheduling.request()
            RealTimeScheduling.release()
            for raises in [true, false] {
                let game = try GameWindow(session: session, title: "test", width: 64, height: 48, headless: true,
                                          rateLimit: .cap(200))
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
    }
}
