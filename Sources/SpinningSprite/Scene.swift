import CadenceSDL

/// Everything the sample draws, in one place: sprite, hitch demo, overlay,
/// graph and slider. The game decides *what* to show; the scene knows *how*.
final class Scene {
    let window: Window
    let renderer: Renderer
    private let sprite: Texture
    private let largeText: TextRenderer
    private let smallText: TextRenderer
    /// The font for the current window size: smaller in a small window, so
    /// the overlay's lines still fit 640 pixels.
    private var text: TextRenderer { isCompact ? smallText : largeText }
    /// Whether the window is too narrow for the wide layout (graph beside the overlay).
    var isCompact: Bool { width < 1000 }
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
        largeText = try TextRenderer(renderer: renderer, size: 16)
        smallText = try TextRenderer(renderer: renderer, size: 13)
        (width, height) = renderer.outputSize
    }

    /// Lays everything out again for a new window size.
    func resize(width: Int, height: Int) {
        (self.width, self.height) = renderer.outputSize
    }

    /// The smallest window the layout stays readable in; the window is held to it.
    static let minimumSize = (width: 640, height: 360)
    /// Below this height the key help is left out of the overlay.
    static let keyHelpMinimumHeight = 520
    /// The hitch demo's objects move this many pixels per second of their clock.
    static let hitchDemoSpeed = 800.0

    func beginFrame() {
        renderer.beginFrame()
        renderer.clear(Color(18, 20, 28))
    }

    /// The sprite at the centre, turned by `angle` radians, small enough to
    /// leave the panels room in a small window.
    /// In a compact window it moves right, beside the graph under the overlay.
    func drawSprite(angle: Double) {
        if isCompact {
            drawSprite(angle: angle, centreX: width * 3 / 4, centreY: height / 2, size: min(height / 2, width / 4))
        } else {
            drawSprite(angle: angle, centreX: width / 2, centreY: height / 2, size: min(256, height / 2))
        }
    }

    /// The hitch demo: two objects crossing the window at ``hitchDemoSpeed``,
    /// the upper one placed from `timestamp` (when the previous frame was
    /// seen), the lower one from `targetTimestamp` (when this one will be).
    /// When the rate changes, the upper one's lag changes with it and it jumps;
    /// the lower one moves by exactly the time between the frames' glass times.
    /// It uses the space between the overlay (`overlayLines` high) and the slider.
    func drawHitchDemo(timestamp: Double, target: Double, angle: Double, caption: String, overlayLines: Int) {
        let top = 12 + overlayLines * text.lineHeight + 16
        let bottom = height - FPSSlider.panelHeight - 12 - text.lineHeight
        let size = max(16, min(72, (bottom - top) / 4))
        let rows = [(timestamp, "from timestamp", Color(255, 120, 130)), (target, "from targetTimestamp", Color(120, 230, 170))]
        for (row, (time, label, color)) in rows.enumerated() {
            let y = top + (bottom - top) * (2 * row + 1) / 4 - text.lineHeight / 2
            let travel = Double(width + size)
            let x = Int((time * Self.hitchDemoSpeed).truncatingRemainder(dividingBy: travel)) - size
            renderer.fill(Rect(x: 0, y: y - 1, width: width, height: 2), Color(50, 54, 70))
            drawSprite(angle: angle, centreX: x + size / 2, centreY: y, size: size)
            text.draw(label, x: 12, y: y + size / 2 + 2, color: color)
        }
        text.draw(caption, x: max(8, (width - text.width(of: caption)) / 2), y: bottom, color: Color(235, 235, 240))
    }

    private func drawSprite(angle: Double, centreX: Int, centreY: Int, size: Int) {
        renderer.draw(sprite, in: Rect(x: centreX - size / 2, y: centreY - size / 2, width: size, height: size),
                      rotation: angle * 180 / .pi)
    }

    /// The text panel, top left; warnings in amber. Returns where it was drawn.
    @discardableResult
    func drawOverlay(lines: [(text: String, isWarning: Bool)]) -> Rect {
        let panelWidth = min(width - 24, lines.map { text.width(of: $0.text) }.max().map { $0 + 24 } ?? 0)
        let panel = Rect(x: 12, y: 12, width: panelWidth, height: lines.count * text.lineHeight + 16)
        renderer.fill(panel, Color(0, 0, 0, 160))
        for (i, line) in lines.enumerated() {
            text.draw(line.text, x: 24, y: 20 + i * text.lineHeight,
                      color: line.isWarning ? Color(255, 196, 60) : Color(235, 235, 240))
        }
        return panel
    }

    /// The frame-time graph beside the overlay when the window is wide
    /// enough, below it when it is tall enough, otherwise not at all.
    func drawGraph(samples: [FrameTimeGraph.Sample], besides overlay: Rect) {
        let full = (width: 420, height: 160)
        let right = overlay.x + overlay.width + 12
        let belowTop = overlay.y + overlay.height + 8
        let belowRoom = height - FPSSlider.panelHeight - 14 - belowTop
        var graph = FrameTimeGraph()
        if width - 12 - right >= full.width {
            graph.frame = Rect(x: width - 12 - full.width, y: 12, width: full.width, height: full.height)
        } else if belowRoom >= 90 {
            graph.frame = Rect(x: 12, y: belowTop, width: min(full.width, width / 2 - 12), height: min(full.height, belowRoom))
        } else {
            return
        }
        graph.draw(renderer, text, samples: samples)
    }

    func drawSlider(_ slider: FPSSlider, effective: Double, caption: String, achievable: [Double]) {
        slider.draw(renderer, text, effective: effective, caption: caption, achievable: achievable)
    }

    /// Finishes the frame's drawing now, so it is measured as work and the
    /// present at the target is only the swap.
    func endFrame() {
        largeText.endFrame()
        smallText.endFrame()
        renderer.flush()
    }

    /// Draws with `draw` and saves the result without presenting it.
    func screenshot(to path: [UInt8], draw: () -> Void) throws {
        draw()
        try renderer.readPixels().saveBMP(toPathBytes: path)
    }
}
