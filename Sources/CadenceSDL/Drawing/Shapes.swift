import CSDL2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Circles, polygons and thick lines: shapes SDL's 2D renderer has no call
/// for, drawn as triangles with `SDL_RenderGeometry` (SDL 2.0.18 and later),
/// which every renderer backend has, the software one included. Like every
/// drawing call they take the game's units (a logical size scales them) and
/// blend by the colour's alpha.
extension Renderer {
    /// Fills the circle of `radius` about `center`.
    ///
    /// Drawn as a polygon whose edges stray less than a quarter of a pixel
    /// inside the true circle, so it looks round at any size.
    public func fillCircle(center: Point, radius: Double, _ color: Color) {
        guard radius > 0 else { return }
        let rim = Self.circle(center: center, radius: radius, segments: Self.segments(radius))
        // A fan: the centre, then each edge of the rim.
        let indices = rim.indices.flatMap { i -> [Int32] in [0, Int32(i + 1), Int32((i + 1) % rim.count + 1)] }
        geometry([center] + rim, indices, color)
    }

    /// Draws the outline of the circle of `radius` about `center`: a ring
    /// `thickness` wide inside the radius, so the circle covers what
    /// ``fillCircle(center:radius:_:)`` would.
    public func outlineCircle(center: Point, radius: Double, _ color: Color, thickness: Double = 1) {
        guard radius > 0, thickness > 0 else { return }
        let segments = Self.segments(radius)
        let outer = Self.circle(center: center, radius: radius, segments: segments)
        let inner = Self.circle(center: center, radius: max(0, radius - thickness), segments: segments)
        geometry(outer + inner, Self.band(segments), color)
    }

    /// Fills the polygon through `points` in order: convex or concave, in
    /// either winding, its edges not crossing one another (a crossing one
    /// is filled only where the triangulation reaches).
    public func fillPolygon(_ points: [Point], _ color: Color) {
        guard points.count >= 3 else { return }
        geometry(points, PolygonTriangulation.triangles(points).map(Int32.init), color)
    }

    /// Draws the polygon through `points` as a closed outline, each edge a
    /// line `thickness` wide (see ``line(from:to:_:thickness:)``).
    public func outlinePolygon(_ points: [Point], _ color: Color, thickness: Double = 1) {
        guard points.count >= 2 else { return }
        for (i, a) in points.enumerated() {
            line(from: a, to: points[(i + 1) % points.count], color, thickness: thickness)
        }
    }

    /// Draws a line between points, `thickness` wide (in the game's units):
    /// one pixel by SDL's line, wider as a rectangle along the segment, its
    /// ends square at `a` and `b`.
    public func line(from a: Point, to b: Point, _ color: Color, thickness: Double = 1) {
        guard thickness > 1 else {
            setColor(color)
            SDL_RenderDrawLineF(handle, Float(a.x), Float(a.y), Float(b.x), Float(b.y))
            return
        }
        let along = (b - a).normalized
        guard along != .zero else { return }
        let side = Point(x: -along.y, y: along.x) * (thickness / 2)
        geometry([a + side, b + side, b - side, a - side], [0, 1, 2, 0, 2, 3], color)
    }

    /// Draws triangles (`indices`, three a triangle) between `points` in one colour.
    private func geometry(_ points: [Point], _ indices: [Int32], _ color: Color) {
        let sdlColor = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
        var scale = (x: Float(1), y: Float(1))
        if isSoftware { SDL_RenderGetScale(handle, &scale.x, &scale.y) }
        let vertices = points.map { p in
            var x = Float(p.x), y = Float(p.y)
            if isSoftware { (x, y) = (Self.nearestPixel(x, scale.x), Self.nearestPixel(y, scale.y)) }
            return SDL_Vertex(position: SDL_FPoint(x: x, y: y), color: sdlColor, tex_coord: SDL_FPoint(x: 0, y: 0))
        }
        SDL_RenderGeometry(handle, nil, vertices, Int32(vertices.count), indices, Int32(indices.count))
    }

    /// `value` moved so that the software renderer, which scales each
    /// vertex and cuts it to a whole pixel toward zero, lands it on the
    /// nearest pixel instead: half a pixel of error at most, not a whole one.
    private static func nearestPixel(_ value: Float, _ scale: Float) -> Float {
        let nearest = (value * scale).rounded()
        return (nearest + (nearest >= 0 ? 0.5 : -0.5)) / scale
    }

    /// Segments enough that the chord's middle lies within a quarter pixel
    /// of the circle: r(1 − cos(π/n)) ≤ ¼.
    private static func segments(_ radius: Double) -> Int {
        guard radius > 0.25 else { return 8 }
        let half = acos(1 - 0.25 / radius)
        return max(8, Int((Double.pi / half).rounded(.up)))
    }

    /// `segments` points on the circle, from angle 0.
    private static func circle(center: Point, radius: Double, segments: Int) -> [Point] {
        (0..<segments).map { i in
            let angle = 2 * Double.pi * Double(i) / Double(segments)
            return center + Point(x: cos(angle), y: sin(angle)) * radius
        }
    }

    /// The triangles between an outer ring (points 0..<n) and an inner one (n..<2n).
    private static func band(_ n: Int) -> [Int32] {
        (0..<n).flatMap { i -> [Int32] in
            let next = (i + 1) % n
            return [Int32(i), Int32(next), Int32(n + next), Int32(i), Int32(n + next), Int32(n + i)]
        }
    }
}
