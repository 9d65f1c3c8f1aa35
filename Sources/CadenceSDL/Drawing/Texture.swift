import CSDL2

/// A GPU (or software) texture made from an image file, e.g. the game's
/// sprite or sprite sheet (draw one frame with ``Renderer/draw(_:source:in:rotation:flip:tint:)-(_,_,Rect,_,_,_)``).
public final class Texture {
    let handle: OpaquePointer
    /// Size in pixels.
    public let width: Int
    /// Height in pixels, for laying the texture out at its natural size.
    public let height: Int

    /// Loads an image file into a texture: PNG (with its alpha), JPEG, BMP and
    /// the other formats SDL_image reads.
    ///
    /// Throws with the path in the message when the file is missing or not a
    /// readable image, so a game with a broken asset says which one.
    /// Throws ``ImageTooLarge``, before decoding, for a file whose header
    /// declares more pixels than the renderer's largest texture.
    public convenience init(file path: String, renderer: Renderer) throws {
        try Self.checkDeclaredSize(pathBytes: Array(path.utf8), renderer: renderer)
        guard let surface = IMG_Load(path) else { throw SDLError("IMG_Load(\(path))") }
        defer { SDL_FreeSurface(surface) }
        try self.init(surface: surface, renderer: renderer, path: path)
    }

    /// Loads a BMP file (with alpha when it has an alpha mask) into a texture.
    ///
    /// Throws with the path in the message when the file is missing or not a
    /// readable BMP, so a game with a broken asset says which one; throws
    /// ``ImageTooLarge``, before decoding, for one whose header declares more
    /// pixels than the renderer's largest texture.
    public convenience init(bmpFile path: String, renderer: Renderer) throws {
        try self.init(bmpFileBytes: Array(path.utf8), renderer: renderer)
    }

    /// Loads a BMP whose path is given as the file system's bytes, which on
    /// Linux need not be UTF-8 (see Cadence's `RawArguments`).
    public convenience init(bmpFileBytes pathBytes: [UInt8], renderer: Renderer) throws {
        try Self.checkDeclaredSize(pathBytes: pathBytes, renderer: renderer)
        let loaded = (pathBytes + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { CSDL2_LoadBMP($0.baseAddress) }
        }
        let path = String(decoding: pathBytes, as: UTF8.self)
        guard let surface = loaded else { throw SDLError("SDL_LoadBMP(\(path))") }
        defer { SDL_FreeSurface(surface) }
        try self.init(surface: surface, renderer: renderer, path: path)
    }

    /// Refuses a file whose header declares more than `renderer` can hold in
    /// one texture, before a decoder allocates what the header claims.
    private static func checkDeclaredSize(pathBytes: [UInt8], renderer: Renderer) throws {
        guard let declared = ImageHeader.declaredSize(pathBytes: pathBytes) else { return }
        let limit = renderer.textureLimit
        guard declared.width > limit.width || declared.height > limit.height else { return }
        throw ImageTooLarge(path: String(decoding: pathBytes, as: UTF8.self), width: declared.width,
                            height: declared.height, limitWidth: limit.width, limitHeight: limit.height)
    }

    /// A texture with a surface's pixels, blended by its alpha.
    private init(surface: UnsafeMutablePointer<SDL_Surface>, renderer: Renderer, path: String) throws {
        guard let texture = SDL_CreateTextureFromSurface(renderer.handle, surface)
        else { throw SDLError("SDL_CreateTextureFromSurface(\(path))") }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        handle = texture
        width = Int(surface.pointee.w)
        height = Int(surface.pointee.h)
    }

    /// Wraps a texture SDL already made (text rendering).
    init(handle: OpaquePointer, width: Int, height: Int) {
        self.handle = handle; self.width = width; self.height = height
    }

    deinit { SDL_DestroyTexture(handle) }
}

/// An image file whose header declares more pixels than the renderer holds in
/// one texture, refused before any pixel is decoded: a file of a hundred
/// bytes can claim 60000x60000, which a decoder would allocate (14 GB) first.
public struct ImageTooLarge: Error, CustomStringConvertible, Sendable {
    /// The file's path.
    public let path: String
    /// The width its header declares.
    public let width: Int
    /// The height its header declares.
    public let height: Int
    /// The renderer's largest texture width.
    public let limitWidth: Int
    /// The renderer's largest texture height.
    public let limitHeight: Int

    /// `<path> declares 60000x60000 pixels, more than the renderer's largest texture (16384x16384)`.
    public var description: String {
        "\(path) declares \(width)x\(height) pixels, more than the renderer's largest texture "
            + "(\(limitWidth)x\(limitHeight)): refused before decoding"
    }
}
