/// An RGBA colour, 8 bits a channel.
public struct Color: Equatable, Hashable, Sendable {
    /// Red, green, blue and alpha (255 = opaque), as SDL takes them.
    public var r, g, b, a: UInt8
    /// A colour; alpha defaults to opaque.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// A colour written as web hex, `0xRRGGBB` (`Color(hex: 0xFF8800)`), opaque unless `alpha` says.
    public init(hex: UInt32, alpha: UInt8 = 255) {
        self.init(UInt8((hex >> 16) & 0xFF), UInt8((hex >> 8) & 0xFF), UInt8(hex & 0xFF), alpha)
    }

    /// The same colour with another alpha (0 transparent, 255 opaque).
    public func withAlpha(_ alpha: UInt8) -> Color { Color(r, g, b, alpha) }

    /// Black: red, green and blue 0, 0, 0.
    public static let black = Color(0, 0, 0)
    /// White: red, green and blue 255, 255, 255.
    public static let white = Color(255, 255, 255)
    /// Gray: red, green and blue 128, 128, 128.
    public static let gray = Color(128, 128, 128)
    /// Dark gray: red, green and blue 64, 64, 64.
    public static let darkGray = Color(64, 64, 64)
    /// Light gray: red, green and blue 192, 192, 192.
    public static let lightGray = Color(192, 192, 192)
    /// Red: red, green and blue 255, 0, 0.
    public static let red = Color(255, 0, 0)
    /// Green: red, green and blue 0, 255, 0.
    public static let green = Color(0, 255, 0)
    /// Blue: red, green and blue 0, 0, 255.
    public static let blue = Color(0, 0, 255)
    /// Yellow: red, green and blue 255, 255, 0.
    public static let yellow = Color(255, 255, 0)
    /// Cyan: red, green and blue 0, 255, 255.
    public static let cyan = Color(0, 255, 255)
    /// Magenta: red, green and blue 255, 0, 255.
    public static let magenta = Color(255, 0, 255)
    /// Orange: red, green and blue 255, 165, 0.
    public static let orange = Color(255, 165, 0)
    /// Purple: red, green and blue 128, 0, 128.
    public static let purple = Color(128, 0, 128)
    /// Brown: red, green and blue 139, 69, 19.
    public static let brown = Color(139, 69, 19)
    /// Pink: red, green and blue 255, 192, 203.
    public static let pink = Color(255, 192, 203)
    /// Fully transparent black: draws nothing.
    public static let clear = Color(0, 0, 0, 0)
}
