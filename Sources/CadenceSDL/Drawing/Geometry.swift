import CSDL2

/// An integer rectangle in pixels, origin top-left.
public struct Rect: Equatable, Hashable, Sendable {
    /// The top-left corner and the size, in pixels.
    public var x, y, width, height: Int
    /// A rectangle from its top-left corner and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// Whether the point lies inside (left/top edges inclusive).
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
    /// Whether the two share at least one pixel.
    public func intersects(_ other: Rect) -> Bool { intersection(other) != nil }
    /// The pixels both cover; nil when they share none.
    public func intersection(_ other: Rect) -> Rect? {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + width, other.x + other.width), bottom = min(y + height, other.y + other.height)
        return right > left && bottom > top ? Rect(x: left, y: top, width: right - left, height: bottom - top) : nil
    }
    var sdl: SDL_Rect { SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height)) }
}

/// A point or a displacement in a game's own units (pixels, or logical
/// pixels with ``Renderer/setLogicalSize(width:height:)``), between pixels:
/// positions, velocities and directions, with the arithmetic they need.
public struct Point: Equatable, Hashable, Sendable {
    /// Across, rightward, and down, downward, as on the screen.
    public var x, y: Double
    /// The point at (x, y).
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin, or no displacement.
    public static let zero = Point(x: 0, y: 0)

    /// `a` moved by `b`.
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The displacement from `b` to `a`.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// `a` scaled by `k` (a velocity times seconds is a displacement).
    public static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
    /// `a` scaled by `k`.
    public static func * (k: Double, a: Point) -> Point { a * k }
    /// `a` divided by `k`.
    public static func / (a: Point, k: Double) -> Point { Point(x: a.x / k, y: a.y / k) }
    /// The opposite displacement.
    public static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }
    /// Moves `a` by `b`.
    public static func += (a: inout Point, b: Point) { a = a + b }
    /// Moves `a` back by `b`.
    public static func -= (a: inout Point, b: Point) { a = a - b }

    /// The distance from the origin (a displacement's length).
    public var length: Double { (x * x + y * y).squareRoot() }
    /// The same direction with length 1; zero stays zero.
    public var normalized: Point { length > 0 ? self / length : .zero }
    /// The distance to `other`.
    public func distance(to other: Point) -> Double { (other - self).length }
    /// The dot product: positive when the two point the same way.
    public func dot(_ other: Point) -> Double { x * other.x + y * other.y }
    /// The point `t` of the way to `other` (0 here, 1 there): for drawing
    /// between a fixed step's last two states.
    public func mix(_ other: Point, _ t: Double) -> Point { self + (other - self) * t }
}

/// A rectangle in a game's own units, between pixels: what moves and
/// collides (an axis-aligned bounding box). Drawn as is; ``rect`` rounds it to pixels.
public struct Box: Equatable, Hashable, Sendable {
    /// The top-left corner and the size.
    public var x, y, width, height: Double
    /// A box whose top-left corner is (x, y).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// A box of `width` by `height` centred on `center`.
    public init(center: Point, width: Double, height: Double) {
        self.init(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
    }
    /// The top-left corner.
    public var origin: Point { Point(x: x, y: y) }
    /// The centre.
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }
    /// The left edge.
    public var minX: Double { x }
    /// The right edge (outside the box: `contains` takes up to it).
    public var maxX: Double { x + width }
    /// The top edge.
    public var minY: Double { y }
    /// The bottom edge (outside the box).
    public var maxY: Double { y + height }

    /// Whether the point lies inside (left and top edges inclusive, right and bottom not).
    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
    /// Whether the two overlap with a positive area (touching edges do not).
    public func intersects(_ other: Box) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
    /// The area both cover; nil when they do not overlap.
    public func intersection(_ other: Box) -> Box? {
        guard intersects(other) else { return nil }
        let left = max(minX, other.minX), top = max(minY, other.minY)
        return Box(x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
    }
    /// The box moved by `offset`.
    public func offset(by offset: Point) -> Box { Box(x: x + offset.x, y: y + offset.y, width: width, height: height) }
    /// The nearest whole pixels: each edge rounded, so boxes that touch stay touching.
    public var rect: Rect {
        let left = Int(minX.rounded()), top = Int(minY.rounded())
        return Rect(x: left, y: top, width: Int(maxX.rounded()) - left, height: Int(maxY.rounded()) - top)
    }
    var sdl: SDL_FRect { SDL_FRect(x: Float(x), y: Float(y), w: Float(width), h: Float(height)) }
}
