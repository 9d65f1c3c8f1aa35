import CadenceSDL

/// Everything the sample draws, in one place: sprite, hitch demo, overlay,
/// graph and slider. The game decides *what* to show; the scene knows *how*.
final class Scene {
    let window: Window
    let renderer: Renderer
    private let sprite: Texture
    private let text: TextRenderer
    private var graph = FrameTimeGraph()
    /// Whether the frame-time graph is shown (G).
    var showGraph = true
    /// Whether the side-by-side hitch demo replaces the single sprite (T).
    var showHitchDemo = false
    private(set) var width: Int
    private(set) var height: Int

    /// Loads the sprite and the font; throws naming whichever file is missing.
    init(window: Window, renderer: Renderer, spritePath: String) throws {
        self.window = window
        self.renderer = renderer
        sprite = try Texture(bmpFile: spritePath, renderer: renderer)
        text = try TextRenderer(renderer: renderer, size: 16)
        (width, height) = renderer.outputSize
        graph.layout(width: width, height: height)
    }

    /// Lays everything out again for a new window size.
    func resize(width: Int, height: Int) {
        (self.width, self.height) = renderer.outputSize
        graph.layout(width: self.width, height: self.height)
    }

    func beginFrame() {
        renderer.beginFrame()
        renderer.clear(Color(18, 20, 28))
    }

    /// The sprite at the centre, turned by `angle` radians.
    func drawSprite(angle: Double) {
        drawSprite(angle: angle, centreX: width / 2, centreY: height / 2, size: 256)
    }

    /// Two sprites: left animated from `timestamp` (lags, hitches on rate
    /// changes), right from `targetTimestamp` (glides).
    func drawHitchDemo(timestampAngle: Double, targetAngle: Double) {
        let size = min(256, width / 3)
        drawSprite(angle: timestampAngle, centreX: width / 4, centreY: height / 2, size: size)
        drawSprite(angle: targetAngle, centreX: width * 3 / 4, centreY: height / 2, size: size)
        text.draw("from timestamp (hitches)", x: width / 4 - 110, y: height / 2 + size / 2 + 12, color: Color(255, 120, 130))
        text.draw("from targetTimestamp (glides)", x: width * 3 / 4 - 130, y: height / 2 + size / 2 + 12,
                  color: Color(120, 230, 170))
    }

    private func drawSprite(angle: Double, centreX: Int, centreY: Int, size: Int) {
        renderer.draw(sprite, in: Rect(x: centreX - size / 2, y: centreY - size / 2, width: size, height: size),
                      rotation: angle * 180 / .pi)
    }

    /// The text panel, top left.
    func drawOverlay(lines: [String]) {
        let panelWidth = lines.map(text.width(of:)).max().map { $0 + 24 } ?? 0
        renderer.fill(Rect(x: 12, y: 12, width: panelWidth, height: lines.count * text.lineHeight + 16), Color(0, 0, 0, 160))
        for (i, line) in lines.enumerated() {
            text.draw(line, x: 24, y: 20 + i * text.lineHeight)
        }
    }

    func drawGraph(intervals: [Int64?], target: Int64) {
        graph.draw(renderer, text, intervals: intervals, target: target)
    }

    func drawSlider(_ slider: FPSSlider, effective: Double, achievable: [Double]) {
        slider.draw(renderer, text, effective: effective, achievable: achievable)
    }

    /// Finishes the frame's drawing now, so it is measured as work and the
    /// present at the target is only the swap.
    func endFrame() {
        text.endFrame()
        renderer.flush()
    }

    /// Draws with `draw` and saves the result without presenting it.
    func screenshot(to path: String, draw: () -> Void) throws {
        draw()
        try renderer.readPixels().saveBMP(to: path)
    }
}
