@_spi(Programs) import CadenceSDL
import Foundation

/// Where the sample draws: the window, its renderer and fonts, the sprite, the
/// place of the library's statistics panel and the slider (the overlay's
/// layout and the hitch demo's objects are in their own files). The game
/// decides *what* to show; the scene knows *how*.
final class Scene {
    let window: Window
    let renderer: Renderer
    private let sprite: Texture
    private let largeText: TextRenderer
    private let smallText: TextRenderer
    /// The font for the current window size: smaller in a small window, so
    /// the overlay's lines still fit 640 pixels.
    var text: TextRenderer { isCompact ? smallText : largeText }
    /// Whether the window is too narrow for the wide layout (graph beside the overlay).
    var isCompact: Bool { width < 1000 }
    /// The library's statistics panel: achieved FPS, late frames, hitch
    /// ratio, the display clock and the frame-time graph.
    let statistics: StatisticsOverlay
    /// Whether the statistics panel is shown (G).
    var showGraph = true
    /// Whether the side-by-side hitch demo replaces the single sprite (T).
    var showHitchDemo = false
    private(set) var width: Int
    private(set) var height: Int

    /// Loads the sprite and the font; throws naming whichever file is missing.
    init(window: Window, renderer: Renderer, spritePath: [UInt8]) throws {
        self.window = window
        self.renderer = renderer
        sprite = try Texture(bmpFileBytes: spritePath, renderer: renderer)
        largeText = try TextRenderer(renderer: renderer, size: 16)
        smallText = try TextRenderer(renderer: renderer, size: 13)
        statistics = try StatisticsOverlay(renderer: renderer, fontSize: 13)
        (width, height) = renderer.outputSize
    }

    /// Where a mouse event at window coordinates (x, y) lands in what is
    /// drawn: the renderer's output can be larger than the window (a HiDPI
    /// scale) or, briefly after a mode change, differ from it.
    func drawingPoint(x: Int, y: Int) -> (x: Int, y: Int) {
        let windowSize = window.size
        guard windowSize.width > 0, windowSize.height > 0 else { return (x, y) }
        return (x * width / windowSize.width, y * height / windowSize.height)
    }

    /// Lays everything out again for a new window size.
    func resize(width: Int, height: Int) {
        (self.width, self.height) = renderer.outputSize
    }

    /// The smallest window the layout stays readable in; the window is held to it.
    static let minimumSize = (width: 640, height: 360)
    func beginFrame() {
        renderer.clear(Color(18, 20, 28))
    }

    /// The sprite at the centre, turned by `angle` radians, small enough to
    /// leave the panels room in a small window. In a compact window it sits
    /// in the right half of the space between the overlay's panel and the
    /// slider, beside the graph, so neither panel covers it.
    func drawSprite(angle: Double, clearOf overlay: Rect, beside panel: Rect? = nil) {
        guard isCompact else {
            drawSprite(angle: angle, centreX: width / 2, centreY: height / 2, size: min(256, height / 2))
            return
        }
        let top = panel == nil ? overlay.y + overlay.height + 8 : 12, bottom = height - FPSSlider.panelHeight - 14
        let left = max(width / 2, panel.map { $0.x + $0.width + 12 } ?? 0), right = width - 12
        let size = max(16, min(bottom - top, right - left))
        drawSprite(angle: angle, centreX: (left + right) / 2, centreY: (top + bottom) / 2, size: size)
    }

    /// The sprite and, below and to its right, its shadow (the same texture
    /// tinted black and two-thirds transparent), together `size` square.
    func drawSprite(angle: Double, centreX: Int, centreY: Int, size: Int) {
        let offset = size / 16, side = size - size / 16
        let place = Rect(x: centreX - size / 2, y: centreY - size / 2, width: side, height: side)
        let shadow = Rect(x: place.x + offset, y: place.y + offset, width: side, height: side)
        renderer.draw(sprite, in: shadow, rotation: angle * 180 / .pi, tint: Color(0, 0, 0, 90))
        renderer.draw(sprite, in: place, rotation: angle * 180 / .pi)
    }

    /// Where the statistics panel goes: beside the overlay when the window is
    /// wide enough, below it when it is tall enough, otherwise in the
    /// overlay's place (a small window: the player asked for the figures),
    /// and nowhere when even that is too small.
    func statisticsPlace(besides overlay: Rect) -> (panel: Rect, coversOverlay: Bool)? {
        let (w, h) = statistics.size
        if width - 12 - (overlay.x + overlay.width + 12) >= w {
            return (Rect(x: width - 12 - w, y: 12, width: w, height: h), false)
        }
        let below = height - FPSSlider.panelHeight - 14
        let top = overlay.y + overlay.height + 8
        if below - top >= h { return (Rect(x: 12, y: top, width: w, height: h), false) }
        if below - overlay.y >= h { return (Rect(x: overlay.x, y: overlay.y, width: w, height: h), true) }
        return nil
    }

    func drawSlider(_ slider: FPSSlider, effective: Double, caption: String, achievable: [Double]) {
        slider.draw(renderer, text, effective: effective, caption: caption, achievable: achievable)
    }

    /// Ends the text caches' frame; the loop flushes the drawing after the
    /// callback (the backend's ``FrameBackend/flush()``).
    func endFrame() {
        largeText.endFrame()
        smallText.endFrame()
        statistics.endFrame()
    }

    /// Draws with `draw` and saves the result without presenting it.
    func screenshot(to path: [UInt8], draw: () -> Void) throws {
        draw()
        try renderer.readPixels().saveBMP(toPathBytes: path)
    }
}
