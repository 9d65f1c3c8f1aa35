import Testing
@_spi(Programs) @testable import CadenceSDL

extension SDLSuites {
    @Suite("A logical size with bars: screenshots are the window's, the statistics panel is in window pixels")
    struct Letterbox {
        /// Runs `body` with a software renderer on an offscreen window of `width` by `height`.
        private func offscreen(width: Int, height: Int, _ body: (Renderer) throws -> Void) throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: width, height: height, hidden: true)
            try body(try Renderer(window: window, software: true, vsync: .off))
        }

        @Test("A 20x20 game in an 80x40 window: the screenshot is 80x40, the game's pixels doubled at x 20…59, bars opaque")
        func screenshotWithBars() throws {
            try offscreen(width: 80, height: 40) { renderer in
                renderer.setLogicalSize(width: 20, height: 20)
                // Scale min(80/20, 40/20) = 2: the picture is 40x40, centred, so bars 20 px wide each side.
                renderer.clear(Color(0, 0, 90))   // clears the whole window, bars included
                renderer.fill(Rect(x: 0, y: 0, width: 5, height: 5), .red)        // window 20…29, 0…9
                renderer.fill(Rect(x: 15, y: 15, width: 5, height: 5), .green)    // window 50…59, 30…39
                let image = try renderer.readPixels()
                #expect((image.width, image.height) == (80, 40))
                #expect(image.rgb(x: 20, y: 0) == (255, 0, 0) && image.rgb(x: 29, y: 9) == (255, 0, 0))
                #expect(image.rgb(x: 19, y: 0) == (0, 0, 90) && image.rgb(x: 30, y: 0) == (0, 0, 90))
                #expect(image.rgb(x: 50, y: 30) == (0, 255, 0) && image.rgb(x: 59, y: 39) == (0, 255, 0))
                #expect(image.rgb(x: 60, y: 39) == (0, 0, 90) && image.rgb(x: 49, y: 39) == (0, 0, 90))
                // No pixel is left unread: every one opaque, the right bar's last column too.
                #expect(image.argb.allSatisfy { $0 >> 24 == 0xFF })
                #expect(image.rgb(x: 79, y: 20) == (0, 0, 90) && image.rgb(x: 0, y: 20) == (0, 0, 90))
                // The game's logical size is as it was.
                #expect(renderer.logicalSize! == (20, 20))
            }
        }

        @Test("960x540 in a 640x360 window: the panel has its own size in window pixels, the game's drawing still scales")
        func panelInWindowPixels() throws {
            try offscreen(width: 640, height: 360) { renderer in
                let overlay = try StatisticsOverlay(renderer: renderer, fontSize: 13)
                renderer.setLogicalSize(width: 960, height: 540)
                renderer.clear(.white)
                let panel = overlay.draw(x: 12, y: 12)
                #expect(panel == Rect(x: 12, y: 12, width: overlay.size.width, height: overlay.size.height))
                // A square after the panel, in the game's coordinates: 840…869, 450…479 is 560…579, 300…319 in the window.
                renderer.fill(Rect(x: 840, y: 450, width: 30, height: 30), .red)
                let image = try renderer.readPixels()
                // Black at alpha 170 over white: 255 × (255 − 170) / 255 = 85, at the panel's far corner, where a
                // panel scaled by 2/3 would have ended a third of its size earlier.
                let right = 12 + overlay.size.width, bottom = 12 + overlay.size.height
                let shade = image.rgb(x: right - 1, y: bottom - 1)
                #expect(abs(Int(shade.r) - 85) <= 1 && shade.r == shade.g && shade.g == shade.b, "\(shade)")
                #expect(image.rgb(x: right, y: bottom - 1) == (255, 255, 255))
                #expect(image.rgb(x: right - 1, y: bottom) == (255, 255, 255))
                #expect(image.rgb(x: 11, y: 12) == (255, 255, 255) && image.rgb(x: 12, y: 11) == (255, 255, 255))
                #expect(image.rgb(x: 560, y: 300) == (255, 0, 0) && image.rgb(x: 579, y: 319) == (255, 0, 0))
                #expect(image.rgb(x: 580, y: 320) == (255, 255, 255) && image.rgb(x: 559, y: 299) == (255, 255, 255))
            }
        }
    }
}
