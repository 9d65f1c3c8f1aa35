/// A simple polygon cut into triangles by ear clipping, for
/// ``Renderer/fillPolygon(_:_:)``: SDL draws triangles, and a concave
/// polygon cannot be drawn as a fan from one corner.
///
/// An ear is a corner that turns the polygon's way (convex) and whose
/// triangle with its two neighbours holds no other corner: cutting it off
/// leaves a simple polygon one corner smaller. Every simple polygon of four
/// or more corners has two ears (Meisters' two ears theorem), so cutting
/// ears until three corners remain covers it exactly. O(n³) at worst,
/// nothing for the few corners a game's shapes have.
enum PolygonTriangulation {
    /// Indices into `points`, three a triangle; fewer triangles than
    /// `points.count - 2` only where the edges cross (not a simple polygon).
    static func triangles(_ points: [Point]) -> [Int] {
        var corners = Array(points.indices)
        // The winding, from the signed area (shoelace): ears turn the same way.
        let turn = area(points) >= 0 ? 1.0 : -1.0
        var result: [Int] = []
        while corners.count > 3 {
            let ear = corners.indices.first { isEar($0, corners, points, turn) }
            guard let ear else { break }   // edges cross: no ear left
            let n = corners.count
            result += [corners[(ear + n - 1) % n], corners[ear], corners[(ear + 1) % n]]
            corners.remove(at: ear)
        }
        if corners.count == 3 { result += corners }
        return result
    }

    /// Twice the signed area: positive when the corners run clockwise on
    /// screen (y down), as x to y turns.
    private static func area(_ p: [Point]) -> Double {
        p.indices.reduce(0) { sum, i in
            let a = p[i], b = p[(i + 1) % p.count]
            return sum + a.x * b.y - b.x * a.y
        }
    }

    /// The cross product of b − a and c − b: which way the path a, b, c turns.
    private static func cross(_ a: Point, _ b: Point, _ c: Point) -> Double {
        (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
    }

    private static func isEar(_ i: Int, _ corners: [Int], _ p: [Point], _ turn: Double) -> Bool {
        let n = corners.count
        let a = p[corners[(i + n - 1) % n]], b = p[corners[i]], c = p[corners[(i + 1) % n]]
        guard cross(a, b, c) * turn > 0 else { return false }
        return !corners.contains { j in
            let q = p[j]
            guard q != a, q != b, q != c else { return false }
            // Inside or on the triangle: on the same side of all three edges.
            return cross(a, b, q) * turn >= 0 && cross(b, c, q) * turn >= 0 && cross(c, a, q) * turn >= 0
        }
    }
}
