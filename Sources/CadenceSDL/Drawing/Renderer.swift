import CSDL2

/// An SDL 2D renderer for one window: drawing, vsync and screenshots (the
/// frame loop presents).
public final class Renderer {
    /// The `SDL_Renderer *`, for games that call SDL directly; valid while the renderer lives.
    public let handle: OpaquePointer
    /// The window drawn to; held so it outlives the renderer.
    public let window: Window
    /// SDL's renderer backend name: `opengl`, `opengles2`, `software`, ...
    public let backend: String
    /// Why the renderer is not what was asked for (software fallback, vsync
    /// fallback), for the overlay and the log; empty when it is.
    public var notes: [String] { creationNotes + (vsyncNote.map { [$0] } ?? []) }
    /// Why the vsync mode in effect is not the one last asked for; nil when it is.
    public private(set) var vsyncNote: String?
    /// Why the renderer is not the accelerated one asked for.
    private let creationNotes: [String]
    /// The vsync mode actually in effect, which may differ from the one asked for.
    public private(set) var vsync: VSyncMode

    /// Creates a renderer, falling back from accelerated to software.
    ///
    /// - Parameters:
    ///   - window: the window to draw in.
    ///   - software: ask for the software renderer directly (headless runs).
    ///   - vsync: the mode wanted; see ``setVSync(_:)`` for fallbacks.
    public init(window: Window, software: Bool = false, vsync: VSyncMode = .on) throws {
        self.window = window
        var created: OpaquePointer?
        var notes: [String] = []
        if !software {
            created = SDL_CreateRenderer(window.handle, -1, SDL_RENDERER_ACCELERATED.rawValue)
            if created == nil {
                notes.append("accelerated renderer unavailable (\(String(cString: SDL_GetError()))); using software")
            }
        }
        if created == nil {
            created = SDL_CreateRenderer(window.handle, -1, SDL_RENDERER_SOFTWARE.rawValue)
        }
        guard let renderer = created else { throw SDLError("SDL_CreateRenderer") }
        handle = renderer
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        backend = info.name.map { String(cString: $0) } ?? "unknown"
        creationNotes = notes
        self.vsync = .off
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        setVSync(vsync)
    }

    deinit { SDL_DestroyRenderer(handle) }

    /// Whether `backend` is the CPU renderer (headless, or no GPU).
    public var isSoftware: Bool { backend == "software" }

    /// Switches vsync, falling back to what the driver supports.
    ///
    /// `adaptive` needs an OpenGL backend whose driver accepts swap interval -1;
    /// otherwise `on` is used and a note says so. Returns the mode in effect.
    @discardableResult
    public func setVSync(_ mode: VSyncMode) -> VSyncMode {
        vsyncNote = nil
        switch mode {
        case .on, .off:
            if SDL_RenderSetVSync(handle, mode == .on ? 1 : 0) != 0 {
                vsyncNote = "vsync \(mode.rawValue) unsupported by \(backend): \(String(cString: SDL_GetError()))"
                vsync = mode == .on ? .off : .on
            } else {
                vsync = mode
            }
        case .adaptive:
            let isGL = backend.hasPrefix("opengl")
            if isGL, SDL_RenderSetVSync(handle, 1) == 0, SDL_GL_SetSwapInterval(-1) == 0 {
                vsync = .adaptive
            } else {
                let reason = isGL ? String(cString: SDL_GetError()) : "the \(backend) renderer has no late swap"
                vsyncNote = "vsync adaptive unavailable (\(reason)); using on"
                vsync = SDL_RenderSetVSync(handle, 1) == 0 ? .on : .off
            }
        }
        return vsync
    }

    /// The vsync modes this renderer really has, in the V-key order (on,
    /// off, adaptive): adaptive only where the driver has late swap, so that
    /// cycling through them offers each mode once and never a fallback.
    /// Found by asking the driver, once, and leaving the mode as it was.
    public private(set) lazy var vsyncModes: [VSyncMode] = {
        let wanted = vsync
        var modes = [VSyncMode.on, .off].filter { SDL_RenderSetVSync(handle, $0 == .on ? 1 : 0) == 0 }
        // SDL_RenderSetVSync makes the renderer's GL context current for the swap interval.
        if backend.hasPrefix("opengl"), SDL_RenderSetVSync(handle, 1) == 0, SDL_GL_SetSwapInterval(-1) == 0 {
            modes.append(.adaptive)
        }
        let savedNote = vsyncNote
        setVSync(wanted)
        vsyncNote = savedNote
        return modes
    }()

    /// The mode after the one in effect among ``vsyncModes``, for a key that cycles them.
    public var nextVSyncMode: VSyncMode {
        let modes = vsyncModes
        guard let index = modes.firstIndex(of: vsync) else { return modes.first ?? vsync }
        return modes[(index + 1) % modes.count]
    }

    /// The largest texture the renderer takes, in pixels. SDL's software
    /// renderer names no limit; 16384 a side, what most GPUs take, stands in.
    public var textureLimit: (width: Int, height: Int) {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(handle, &info) == 0, info.max_texture_width > 0, info.max_texture_height > 0
        else { return (16_384, 16_384) }
        return (Int(info.max_texture_width), Int(info.max_texture_height))
    }

    /// The drawable size in pixels (differs from the window size on HiDPI).
    public var outputSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(handle, &w, &h)
        return (Int(w), Int(h))
    }

    /// Executes the drawing queued so far, now rather than at the present.
    ///
    /// SDL batches draw calls and runs them when the frame is presented. The
    /// frame loop calls this (through its backend) right after the game's
    /// `runFrame`, so the drawing counts as the frame's work and the present
    /// at the target moment is only the swap (with the software renderer,
    /// rasterising a frame takes milliseconds): a game never needs to.
    /// On OpenGL, handing SDL's batch to the driver is not enough: the driver
    /// draws when the swap needs it, so the swap would take as long as the
    /// drawing and its return would wander with it. `glFinish` makes the
    /// drawing happen here, before the wait for the frame's moment.
    public func flush() {
        let finish = { SDL_RenderFlush(self.handle); self.glFinish?() }
        if let watchdog { watchdog.guarding { finish() } } else { finish() }
    }

    /// OpenGL's `glFinish` where SDL draws with OpenGL (or OpenGL ES), which
    /// SDL has loaded: looked up on the first flush, when SDL's context is current.
    private lazy var glFinish: (@convention(c) () -> Void)? = {
        guard backend.hasPrefix("opengl"), let address = SDL_GL_GetProcAddress("glFinish") else { return nil }
        return unsafeBitCast(address, to: (@convention(c) () -> Void).self)
    }()

    /// Watches each present and flush (and, through ``GameWindow``, each
    /// event poll), ending the run when one never returns (see `PresentWatchdog`).
    @_spi(Programs) public var watchdog: PresentWatchdog?

    /// Shows what was drawn. With vsync on this blocks until the next vblank.
    ///
    /// Not for games: the frame loop presents each frame once, at the moment
    /// its pacing chose, and a game that also presented would show half-drawn
    /// frames and halve its rate with no warning. Only the benchmarks, which
    /// compare Cadence with loops that present by themselves, import it
    /// (`@_spi(Programs) import CadenceSDL`).
    ///
    /// - Parameter endingStartUp: whether this present's return ends the
    ///   watchdog's start-up, whose longer limit covers a software renderer's
    ///   slow first frame. The window's first picture, shown before any frame
    ///   is drawn, passes `false`, so the limit holds until the first frame's.
    @_spi(Programs)
    public func present(endingStartUp: Bool = true) {
        guard let watchdog else { return SDL_RenderPresent(handle) }
        watchdog.guarding { SDL_RenderPresent(handle) }
        if endingStartUp { watchdog.presentReturned() }
    }

    /// Reads the current target back into an image, before it is presented:
    /// the whole window, pixel for pixel, bars included under a logical size.
    ///
    /// SDL's back buffer is undefined after a present, so the screenshot of a
    /// frame must be taken between drawing it and presenting it. SDL reads
    /// only the viewport, which a logical size shrinks to the picture between
    /// its bars, into the top-left of the buffer: the read is made in window
    /// pixels (``inWindowPixels(_:)``) so the image is the window's.
    public func readPixels() throws -> Image {
        let (w, h) = outputSize
        var pixels = [UInt32](repeating: 0, count: w * h)
        try inWindowPixels {
            try pixels.withUnsafeMutableBytes { buf in
                try check(SDL_RenderReadPixels(handle, nil, CSDL2_PixelFormatARGB8888(),
                                               buf.baseAddress, Int32(w * 4)), "SDL_RenderReadPixels")
            }
        }
        return Image(width: w, height: h, argb: pixels)
    }
}
