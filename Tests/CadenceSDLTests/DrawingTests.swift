import Foundation
import CSDL2
import Testing
@_spi(Programs) @testable import CadenceSDL

extension SDLSuites {
    @Suite("2D basics: PNG sprite sheets, flips, logical size, geometry")
    struct Drawing {
        /// A 4x2 sprite sheet of two 2x2 frames: frame 0 is columns 0–1, frame 1 columns 2–3.
        /// Frame 1's bottom-right pixel is fully transparent.
        static let sheet: [[(UInt8, UInt8, UInt8, UInt8)]] = [
            [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255)],
            [(255, 255, 0, 255), (0, 255, 255, 255), (255, 0, 255, 255), (0, 0, 0, 0)],
        ]

        private func offscreen(_ body: (Renderer) throws -> Void) throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 64, height: 48, hidden: true)
            try body(try Renderer(window: window, software: true, vsync: .off))
        }

        @Test("A PNG's frame drawn with a source rectangle, scaled 10x and mirrored, lands pixel for pixel; its alpha shows the background")
        func pngSourceRectAndFlip() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-sheet-\(getpid()).png").path
            try Data(PNGBytes.rgba(Self.sheet)).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            try offscreen { renderer in
                let texture = try Texture(file: path, renderer: renderer)
                #expect((texture.width, texture.height) == (4, 2))
                renderer.clear(Color(50, 50, 50))
                // Frame 1 (blue white / magenta clear), mirrored left to right, 10 px a texel at (10, 10).
                renderer.draw(texture, source: Rect(x: 2, y: 0, width: 2, height: 2),
                              in: Rect(x: 10, y: 10, width: 20, height: 20), flip: .horizontal)
                // Frame 0 (red green / yellow cyan), upside down, at (40, 10).
                renderer.draw(texture, source: Rect(x: 0, y: 0, width: 2, height: 2),
                              in: Rect(x: 40, y: 10, width: 20, height: 20), flip: .vertical)
                let image = try renderer.readPixels()
                // Mirrored: white is now left of blue, the clear texel left of magenta.
                #expect(image.rgb(x: 15, y: 15) == (255, 255, 255))
                #expect(image.rgb(x: 25, y: 15) == (0, 0, 255))
                #expect(image.rgb(x: 15, y: 25) == (50, 50, 50))
                #expect(image.rgb(x: 25, y: 25) == (255, 0, 255))
                // Upside down: yellow cyan on top, red green below.
                #expect(image.rgb(x: 45, y: 15) == (255, 255, 0))
                #expect(image.rgb(x: 55, y: 15) == (0, 255, 255))
                #expect(image.rgb(x: 45, y: 25) == (255, 0, 0))
                #expect(image.rgb(x: 55, y: 25) == (0, 255, 0))
                // Every texel is a 10x10 block: its corners too.
                #expect(image.rgb(x: 10, y: 10) == (255, 255, 255) && image.rgb(x: 19, y: 19) == (255, 255, 255))
                #expect(image.rgb(x: 9, y: 10) == (50, 50, 50) && image.rgb(x: 30, y: 10) == (50, 50, 50))
            }
        }

        @Test("A missing or unreadable image file throws with its path")
        func badImage() throws {
            try offscreen { renderer in
                let error = #expect(throws: SDLError.self) { try Texture(file: "/nonexistent/sprite.png", renderer: renderer) }
                #expect(error?.description.contains("IMG_Load(/nonexistent/sprite.png)") == true, "\(String(describing: error))")
            }
        }

        @Test("A logical size scales drawing to the window: 32x24 on 64x48 doubles every pixel")
        func logicalSize() throws {
            try offscreen { renderer in
                #expect(renderer.logicalSize == nil)
                renderer.setLogicalSize(width: 32, height: 24)
                #expect(renderer.logicalSize! == (32, 24))
                renderer.clear(.black)
                renderer.fill(Rect(x: 8, y: 8, width: 4, height: 4), .red)
                let image = try renderer.readPixels()
                #expect((image.width, image.height) == (64, 48))
                #expect(image.rgb(x: 16, y: 16) == (255, 0, 0) && image.rgb(x: 23, y: 23) == (255, 0, 0))
                #expect(image.rgb(x: 15, y: 15) == (0, 0, 0) && image.rgb(x: 24, y: 24) == (0, 0, 0))
            }
        }

        @Test("The renderer's warm-up leaves no pixel changed, and gives back the game's draw colour and blend mode")
        func warmUpIsInvisible() throws {
            try offscreen { renderer in
                renderer.clear(Color(10, 20, 30))
                SDL_SetRenderDrawColor(renderer.handle, 1, 2, 3, 4)
                SDL_SetRenderDrawBlendMode(renderer.handle, SDL_BLENDMODE_NONE)
                renderer.warmUp()
                let image = try renderer.readPixels()
                let changed = (0..<image.height).flatMap { y in (0..<image.width).map { x in (x, y) } }
                    .filter { image.rgb(x: $0.0, y: $0.1) != (10, 20, 30) }
                #expect(changed.isEmpty, "changed pixels: \(changed.prefix(8))")
                var (r, g, b, a): (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
                var mode = SDL_BLENDMODE_BLEND
                SDL_GetRenderDrawColor(renderer.handle, &r, &g, &b, &a)
                SDL_GetRenderDrawBlendMode(renderer.handle, &mode)
                #expect((r, g, b, a) == (1, 2, 3, 4) && mode == SDL_BLENDMODE_NONE)
            }
        }

        @Test("Rectangles and boxes overlap where their edges say, and touching is not overlapping")
        func intersections() {
            let a = Rect(x: 0, y: 0, width: 10, height: 10)
            #expect(a.intersection(Rect(x: 5, y: 8, width: 10, height: 10)) == Rect(x: 5, y: 8, width: 5, height: 2))
            #expect(!a.intersects(Rect(x: 10, y: 0, width: 5, height: 5)))   // shares an edge, no pixel
            let box = Box(center: Point(x: 0, y: 0), width: 2, height: 2)        // -1…1 on both axes
            #expect(box.intersection(Box(x: 0.5, y: -3, width: 4, height: 3.5)) == Box(x: 0.5, y: -1, width: 0.5, height: 1.5))
            #expect(!box.intersects(Box(x: 1, y: -1, width: 1, height: 1)))
            #expect(box.contains(Point(x: -1, y: -1)) && !box.contains(Point(x: 1, y: 0)))
            // Rounded edge by edge: 0.5 → 1 (half away from zero) and 20.5 → 21, width 20.
            #expect(Box(x: 0.5, y: 2.4, width: 20, height: 3.2).rect == Rect(x: 1, y: 2, width: 20, height: 4))
            #expect(Point(x: 3, y: 4).length == 5 && Point(x: 3, y: 4).normalized == Point(x: 0.6, y: 0.8))
            #expect(Point(x: 0, y: 10).mix(Point(x: 10, y: 20), 0.25) == Point(x: 2.5, y: 12.5))
        }

        @Test("Named colours and hex colours are the channel values they name")
        func colours() {
            #expect(Color(hex: 0xFF8800) == Color(255, 136, 0))
            #expect(Color.orange == Color(hex: 0xFFA500) && Color.clear.a == 0 && Color.white.withAlpha(128).a == 128)
        }
    }
}
