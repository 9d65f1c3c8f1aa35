@_spi(Programs) import Cadence
import CSDL2
import Testing
@_spi(Programs) @testable import CadenceSDL

/// SDL is process-global, so every suite that initialises it runs serialized
/// inside this one parent suite.
@Suite("SDL", .serialized)
struct SDLSuites {
    @Suite("C module")
    struct CModule {
        @Test func windowPosCenteredShimReturnsSDLsMacroValue() {
            // SDL_WINDOWPOS_CENTERED is SDL_WINDOWPOS_CENTERED_MASK | 0.
            #expect(CSDL2_WindowPosCentered() == 0x2FFF_0000)
            #expect(CSDL2_WindowPosUndefined() == 0x1FFF_0000)
        }

        @Test func buttonShimMatchesTheButtonMask() {
            #expect(CSDL2_Button(1) == 1)      // left
            #expect(CSDL2_Button(3) == 4)      // right
        }

        @Test func compiledAndLinkedVersionsAreSDL2() {
            #expect(CSDL2_CompiledVersion().major == 2)
            #expect(SDLSession.linkedVersion.hasPrefix("2."))
        }

        @Test func sdlInitialisesWithTheDummyDriver() throws {
            let session = try SDLSession(videoDriver: "dummy")
            defer { session.shutdown() }
            #expect(session.videoDriver == "dummy")
        }
    }

    @Suite("Offscreen rendering")
    struct Offscreen {
        @Test func rendererDrawsAndReadsBackPixels() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 64, height: 48, hidden: true)
            let renderer = try Renderer(window: window, software: true, vsync: .off)
            #expect(renderer.isSoftware)
            renderer.clear(Color(10, 20, 30))
            renderer.fill(Rect(x: 16, y: 16, width: 8, height: 8), Color(250, 0, 0))
            let image = try renderer.readPixels()
            #expect(image.width == 64 && image.height == 48)
            #expect(image.rgb(x: 0, y: 0) == (10, 20, 30))
            #expect(image.rgb(x: 20, y: 20) == (250, 0, 0))
        }

        @Test("No GPU: the accelerated renderer fails, the software one takes over, and a note says why")
        func softwareFallback() throws {
            // SDL's dummy driver has a window framebuffer but no OpenGL at all.
            let session = try SDLSession(videoDriver: "dummy")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 32, height: 32, hidden: true)
            let renderer = try Renderer(window: window, software: false, vsync: .off)
            #expect(renderer.isSoftware)
            #expect(renderer.notes.contains { $0.hasPrefix("accelerated renderer unavailable") })
        }

        @Test func adaptiveVsyncFallsBackAndSaysSo() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 32, height: 32, hidden: true)
            let renderer = try Renderer(window: window, software: true, vsync: .adaptive)
            #expect(renderer.vsync != .adaptive)
            #expect(renderer.notes.contains { $0.contains("adaptive unavailable") })
        }

        @Test("The vsync cycle offers each mode the renderer has once, adaptive only with late swap, and keeps the mode in effect")
        func vsyncCycleOffersEachModeOnce() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 32, height: 32, hidden: true)
            let renderer = try Renderer(window: window, software: true, vsync: .off)
            // The software renderer has no OpenGL, so no late swap.
            #expect(renderer.vsyncModes == [.on, .off])
            #expect(renderer.vsync == .off && renderer.notes.isEmpty, "asking the driver changed nothing")
            var seen: [VSyncMode] = []
            for _ in 0..<4 {
                seen.append(renderer.setVSync(renderer.nextVSyncMode))
            }
            #expect(seen == [.on, .off, .on, .off])
            #expect(!renderer.notes.contains { $0.contains("unavailable") })
        }

        @Test func missingBMPNamesThePath() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 32, height: 32, hidden: true)
            let renderer = try Renderer(window: window, software: true, vsync: .off)
            #expect {
                try Texture(bmpFile: "/nonexistent/sprite.bmp", renderer: renderer)
            } throws: { error in
                "\(error)".contains("/nonexistent/sprite.bmp")
            }
        }
    }

    @Suite("Presenter on SDL")
    struct Presenter {
        @Test("vsync adaptive without late swap falls back to on and says so; the presenter follows the mode in effect; uncapped turns vsync off and gives it back")
        func adaptiveVsyncFallsBackToOn() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 32, height: 32, hidden: true)
            let renderer = try Renderer(window: window, software: true, vsync: .adaptive)
            #expect(renderer.vsync == .on)
            #expect(renderer.notes.contains { $0.contains("vsync adaptive unavailable") && $0.hasSuffix("using on") })
            let backend = SDLBackend(renderer: renderer, clock: MonotonicClock(), refreshHz: 60) { _ in }
            // SDL simulates vsync for the software renderer: presents wait, so the presenter uses vsync mode.
            for _ in 0..<PresentBlockingCheck.sampleCount { _ = backend.present() }
            #expect(PresentMode(for: backend.currentTiming()) == .vsync)
            #expect(backend.timingNote == nil)
            // Vsync off: nothing to wait for, so frames are presented on the timer.
            renderer.setVSync(.off)
            backend.displayModeChanged(refreshHz: 60)
            let timing = backend.currentTiming()
            #expect(timing == .unsynced(reported: FrameRate(hz: 60)))
            #expect(PresentMode(for: timing) == .timed)
            #expect(backend.timingNote == .vsyncOff)
            #expect(backend.timingNote?.description == "paced by timer")
            // Uncapped from vsync on: the backend turns vsync off, and gives it back after.
            renderer.setVSync(.on)
            backend.uncappedChanged(to: true)
            #expect(renderer.vsync == .off)
            #expect(backend.currentTiming() == .unsynced(reported: FrameRate(hz: 60)))
            #expect(backend.timingNote == .uncapped)
            backend.uncappedChanged(to: false)
            #expect(renderer.vsync == .on)
            // A mode the player chose while uncapped is kept.
            backend.uncappedChanged(to: true)
            renderer.setVSync(.adaptive)
            backend.uncappedChanged(to: false)
            #expect(renderer.vsync != .off)
        }

        @Test func timerSlackGoesToItsMinimum() {
            #expect(TimerSlack.minimize() == 1)
            #expect(TimerSlack.current == 1)
        }
    }
}
