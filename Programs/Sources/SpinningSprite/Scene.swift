import CadenceSDL
import Foundation

/// Everything the sample draws, in one place: sprite, hitch demo, overlay,
/// the library's statistics panel and the slider. The game decides *what* to show; the scene knows *how*.
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
    /// The hitch demo's objects move this many pixels per second of their clock.
    static let hitchDemoSpeed = 800.0

    func beginFrame() {
        renderer.clear(Color(18, 20, 28))
    }

    /// The sprite at the centre, turned by `angle` radians, small enough to
    /// leave the panels room in a small window. In a compact window it sits
    /// in the right half of the space between the overlay's panel and the
    /// slider, beside the graph, so neither panel covers it.
    func drawSprite(angle: Double, clearOf overlay: Rect) {
        guard isCompact else {
            drawSprite(angle: angle, centreX: width / 2, centreY: height / 2, size: min(256, height / 2))
            return
        }
        let top = overlay.y + overlay.height + 8, bottom = height - FPSSlider.panelHeight - 14
        let left = width / 2, right = width - 12
        let size = max(16, min(bottom - top, right - left))
        drawSprite(angle: angle, centreX: (left + right) / 2, centreY: (top + bottom) / 2, size: size)
    }

    /// The hitch demo: two objects crossing the window at ``hitchDemoSpeed``,
    /// the upper one placed from `timestamp` (when the previous frame was
    /// seen), the lower one from `targetTimestamp` (when this one will be).
    /// When the rate changes, the upper one's lag changes with it and it jumps;
    /// the lower one moves by exactly the time between the frames' glass times.
    /// It uses the space between the overlay (`overlayLines` high) and the slider.
    func drawHitchDemo(timestamp: Double, target: Double, angle: Double, caption: String, below panels: [Rect]) {
        let top = (panels.map { $0.y + $0.height }.max() ?? 0) + 16
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

    /// The overlay's text, each line broken to fit the window, and the panel
    /// (top left) that holds it.
    struct Overlay {
        let lines: [(text: String, isWarning: Bool)]
        let panel: Rect
    }

    /// The overlay panel's width in characters: fixed, so that the panel
    /// does not change width with its text.
    static let overlayColumns = 66

    /// Lays out the overlay's `lines` in a panel of ``overlayColumns``
    /// characters (less in a narrower window): a longer line is broken at
    /// spaces, the rest indented to the column of values.
    func overlay(_ lines: [(text: String, isWarning: Bool)]) -> Overlay {
        let panelWidth = min(width - 24, Self.overlayColumns * text.width(of: "0") + 24)
        let broken = lines.flatMap { line in wrap(line.text, to: panelWidth - 24).map { (text: $0, isWarning: line.isWarning) } }
        return Overlay(lines: broken, panel: Rect(x: 12, y: 12, width: panelWidth, height: broken.count * text.lineHeight + 16))
    }

    /// `line` in pieces no wider than `widest` pixels; the pieces after the
    /// first start at the values' column (10 characters in). It breaks
    /// between fields (which runs of two or more spaces part), and inside a
    /// field too wide by itself, between words.
    private func wrap(_ line: String, to widest: Int, separator: String = "  ") -> [String] {
        guard text.width(of: line) > widest else { return [line] }
        let indent = String(repeating: " ", count: 10)
        let lead = String(line.prefix { $0 == " " })
        var pieces: [String] = [], current = lead
        for part in line.dropFirst(lead.count).components(separatedBy: separator) {
            let blank = current.allSatisfy { $0 == " " }
            let candidate = blank ? current + part : current + separator + part
            if blank || text.width(of: candidate) <= widest {
                current = candidate
            } else {
                pieces.append(current)
                current = indent + part.drop { $0 == " " }
            }
        }
        pieces.append(current)
        guard separator != " " else { return pieces }
        return pieces.flatMap { wrap($0, to: widest, separator: " ") }
    }

    /// Draws the overlay's panel and text; warnings in amber.
    func draw(_ overlay: Overlay) {
        renderer.fill(overlay.panel, Color(0, 0, 0, 160))
        for (i, line) in overlay.lines.enumerated() {
            text.draw(line.text, x: 24, y: 20 + i * text.lineHeight,
                      color: line.isWarning ? Color(255, 196, 60) : Color(235, 235, 240))
        }
    }

    /// Where the statistics panel goes: beside the overlay when the window is
    /// wide enough, below it when it is tall enough, otherwise nowhere.
    func statisticsPlace(besides overlay: Rect) -> Rect? {
        let (w, h) = statistics.size
        if width - 12 - (overlay.x + overlay.width + 12) >= w { return Rect(x: width - 12 - w, y: 12, width: w, height: h) }
        let top = overlay.y + overlay.height + 8
        if height - FPSSlider.panelHeight - 14 - top >= h { return Rect(x: 12, y: top, width: w, height: h) }
        return nil
    }

    func drawSlider(_ slider: FPSSlider, effective: Double, caption: String, achievable: [Double]) {
        slider.draw(renderer, text, effective: effective, caption: caption, achievable: achievable)
    }

    /// Ends the text caches' frame; the loop flushes the drawing after the
    /// callback (``GameWindow`` sets ``FrameLoop/didRunFrame``).
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
