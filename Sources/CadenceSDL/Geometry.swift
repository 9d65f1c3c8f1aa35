import CSDL2

/// An RGBA colour, 8 bits a channel.
public struct Color: Equatable, Sendable {
    /// Red, green, blue and alpha (255 = opaque), as SDL takes them.
    public var r, g, b, a: UInt8
    /// A colour; alpha defaults to opaque.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
}

/// An integer rectangle in pixels, origin top-left.
public struct Rect: Equatable, Sendable {
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
    var sdl: SDL_Rect { SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height)) }
}
