import Foundation
import Testing
@_spi(Programs) @testable import CadenceSDL

extension SDLSuites {
    /// Shapes judged pixel by pixel against their geometry: a pixel whose
    /// centre lies a pixel or more inside a shape's edge is drawn, one a pixel
    /// or more outside is not; the pixels the edge crosses may go either way.
    @Suite("Shapes, tints and text sizes, on the software renderer")
    struct Shapes {
        static let background = Color(0, 0, 90)

        /// Runs `body` on a cleared 128x128 offscreen window, then reads its pixels.
        private func drawn(_ body: (Renderer) throws -> Void) throws -> Image {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 128, height: 128, hidden: true)
            let renderer = try Renderer(window: window, software: true, vsync: .off)
            renderer.clear(Self.background)
            try body(renderer)
            return try renderer.readPixels()
        }

        /// Checks every pixel: drawn (red) where `distanceInside` of its centre is ≥ 1, background where ≤ −1.
        private func judge(_ image: Image, _ distanceInside: (Point) -> Double) {
            var wrong: [String] = []
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let d = distanceInside(Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
                    let pixel = image.rgb(x: x, y: y)
                    if d >= 1, pixel != (255, 0, 0) { wrong.append("(\(x),\(y)) inside by \(d): \(pixel)") }
                    if d <= -1, pixel != (0, 0, 90) { wrong.append("(\(x),\(y)) outside by \(-d): \(pixel)") }
                }
            }
            #expect(wrong.isEmpty, "\(wrong.count) pixels wrong, first \(wrong.prefix(5))")
        }

        @Test("A filled circle of radius 40: every pixel within 39 of the centre drawn, none beyond 41, its area πr²")
        func filledCircle() throws {
            let centre = Point(x: 64.5, y: 60.5), r = 40.0
            let image = try drawn { $0.fillCircle(center: centre, radius: r, .red) }
            judge(image) { r - $0.distance(to: centre) }
            let area = image.argb.filter { $0 & 0xFFFFFF == 0xFF0000 }.count
            #expect(abs(Double(area) - Double.pi * r * r) < 2 * Double.pi * r * 0.5, "area \(area)")
        }

        @Test("Under a logical size of 64x64 in the 128x128 window, a circle of radius 20 is one of radius 40 in window pixels")
        func circleUnderLogicalSize() throws {
            let image = try drawn { renderer in
                renderer.setLogicalSize(width: 64, height: 64)
                renderer.fillCircle(center: Point(x: 31.3, y: 33.6), radius: 20, .red)
            }
            judge(image) { 40 - $0.distance(to: Point(x: 62.6, y: 67.2)) }
        }

        @Test("A circle's outline 3 wide: a ring from radius 37 to 40, its hole and outside empty")
        func outlinedCircle() throws {
            let centre = Point(x: 60, y: 64), r = 40.0, thickness = 3.0
            let image = try drawn { $0.outlineCircle(center: centre, radius: r, .red, thickness: thickness) }
            judge(image) { p in
                let d = p.distance(to: centre)
                return min(r - d, d - (r - thickness))   // inside the ring by the nearer of its two edges
            }
        }

        @Test("A line 8 wide: the rectangle 4 either side of the segment, square at its ends")
        func thickLine() throws {
            let a = Point(x: 20, y: 30), b = Point(x: 100, y: 90), half = 4.0
            let image = try drawn { $0.line(from: a, to: b, .red, thickness: 2 * half) }
            let length = a.distance(to: b), along = (b - a) / length
            judge(image) { p in
                let t = (p - a).dot(along)                       // how far along the segment
                let off = abs((p - a).x * along.y - (p - a).y * along.x)   // how far from its line
                return min(half - off, t, length - t)
            }
        }

        /// A "U": 80 wide and high with a 40x60 notch from the top, concave at two corners.
        static let u = [Point(x: 20, y: 20), Point(x: 40, y: 20), Point(x: 40, y: 80), Point(x: 80, y: 80),
                        Point(x: 80, y: 20), Point(x: 100, y: 20), Point(x: 100, y: 100), Point(x: 20, y: 100)]

        /// The signed distance of `p` inside `polygon`: even-odd ray casting for the side,
        /// the nearest edge for the distance.
        static func inside(_ p: Point, _ polygon: [Point]) -> Double {
            var isInside = false, nearest = Double.infinity
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { isInside.toggle() }
                let ab = b - a, t = max(0, min(1, (p - a).dot(ab) / ab.dot(ab)))
                nearest = min(nearest, p.distance(to: a + ab * t))
            }
            return isInside ? nearest : -nearest
        }

        @Test("A concave polygon, in both windings, fills its arms and leaves its notch empty", arguments: [false, true])
        func concavePolygon(reversed: Bool) throws {
            let points = reversed ? Array(Self.u.reversed()) : Self.u
            let image = try drawn { $0.fillPolygon(points, .red) }
            judge(image) { Self.inside($0, Self.u) }
            #expect(image.rgb(x: 60, y: 50) == (0, 0, 90))   // the notch's middle
        }

        @Test("A convex polygon (a triangle and a hexagon) fills exactly its inside")
        func convexPolygons() throws {
            let triangle = [Point(x: 10, y: 10), Point(x: 60, y: 10), Point(x: 10, y: 60)]
            let hexagon = (0..<6).map { i in
                Point(x: 90 + 30 * cos(Double(i) * .pi / 3), y: 90 + 30 * sin(Double(i) * .pi / 3))
            }
            let image = try drawn { renderer in
                renderer.fillPolygon(triangle, .red)
                renderer.fillPolygon(hexagon, .red)
            }
            judge(image) { max(Self.inside($0, triangle), Self.inside($0, hexagon)) }
        }

        @Test("A white texture tinted red is red; at alpha 128 over the background it is the blend; untinted after, white")
        func tintAndAlpha() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-white-\(getpid()).png").path
            try Data(PNGBytes.rgba([[(255, 255, 255, 255), (255, 255, 255, 255)]])).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let image = try drawn { renderer in
                let white = try Texture(file: path, renderer: renderer)
                renderer.draw(white, in: Rect(x: 0, y: 0, width: 20, height: 20), tint: .red)
                renderer.draw(white, in: Rect(x: 30, y: 0, width: 20, height: 20), tint: Color(255, 255, 255, 128))
                renderer.draw(white, in: Rect(x: 60, y: 0, width: 20, height: 20))
            }
            #expect(image.rgb(x: 10, y: 10) == (255, 0, 0))
            // Source over: 255 × 128/255 + background × 127/255: 128, 128, 128 + 45 = 173.
            let blend = image.rgb(x: 40, y: 10)
            #expect(abs(Int(blend.r) - 128) <= 2 && abs(Int(blend.g) - 128) <= 2 && abs(Int(blend.b) - 173) <= 2, "\(blend)")
            #expect(image.rgb(x: 70, y: 10) == (255, 255, 255))
        }

        @Test("Text at 40 px per call stands twice as tall and wide as at 20 px")
        func textSizePerCall() throws {
            var rows: [Int: ClosedRange<Int>] = [:]
            var widths: [Int: Int] = [:]
            let image = try drawn { renderer in
                let text = try TextRenderer(renderer: renderer, size: 20)
                text.draw("HH", x: 4, y: 4, color: .white)
                text.draw("HH", x: 4, y: 40, color: .white, size: 40)
                widths = [20: text.width(of: "HHHH"), 40: text.width(of: "HHHH", size: 40)]
            }
            // The lit rows of each: a capital's height scales with the font's pixel size.
            for (size, band) in [(20, 0..<36), (40, 36..<128)] {
                let lit = band.filter { y in (0..<128).contains { image.rgb(x: $0, y: y).r > 128 } }
                rows[size] = lit.min()!...lit.max()!
            }
            let ratio = Double(rows[40]!.count) / Double(rows[20]!.count)
            #expect(ratio > 1.8 && ratio < 2.2, "capital heights \(rows)")
            let widthRatio = Double(widths[40]!) / Double(widths[20]!)
            #expect(widthRatio > 1.9 && widthRatio < 2.1, "\(widths)")
        }
    }
}
