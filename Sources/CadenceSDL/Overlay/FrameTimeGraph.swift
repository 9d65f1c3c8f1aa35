import Cadence

/// The frame-time graph: one bar per recent frame, the time from the previous
/// frame's glass time to its own, on a fixed scale (0 to ``scale``) so that
/// one hitch never flattens the rest, with the interval the link planned for
/// each frame marked on its bar (so a rate change does not recolour the past).
package struct FrameTimeGraph {
    /// One bar: the interval before a frame reached the glass, and the interval planned for it.
    package struct Sample: Equatable, Sendable {
        package var interval: Nanoseconds
        package var target: Nanoseconds
        package init(interval: Nanoseconds, target: Nanoseconds) { self.interval = interval; self.target = target }
        /// A hitch by the statistics' rule (``FrameStatistics/isHitch(interval:planned:)``).
        package var isHitch: Bool { FrameStatistics.isHitch(interval: interval, planned: target) }
    }

    /// The axis top: 50 ms, so 20 FPS fills the graph and 60 FPS a third of it.
    package static let scale: Nanoseconds = 50_000_000
    /// Each bar's width in pixels.
    package static let barWidth = 2

    /// The colours, each named in the legend.
    package static let intervalColor = Color(80, 170, 255)
    package static let hitchColor = Color(255, 70, 80)
    package static let targetColor = Color(90, 255, 170)
    package static let clippedColor = Color(255, 220, 60)
    static let gridColor = Color(70, 76, 96)
    static let labelColor = Color(170, 175, 190)

    /// The legend, one entry per colour, in the order drawn.
    package static let legend: [(color: Color, words: String)] = [
        (intervalColor, "frame interval"), (hitchColor, "hitch (>1.5x planned)"),
        (targetColor, "planned interval"), (clippedColor, "over 50 ms (cut)"),
    ]

    /// Draws `samples` (oldest first), the newest that fit, into `bars`, with
    /// grid lines at 0, 25 and 50 ms labelled on the right; returns the plot
    /// (the bars' area, left of the labels), the newest bar at its right edge.
    @discardableResult
    static func draw(_ samples: [Sample], in bars: Rect, renderer: Renderer, text: TextRenderer) -> Rect {
        renderer.fill(bars, Color(6, 7, 10))   // opaque: no blending under the bars
        let labelWidth = text.width(of: "50 ms") + 6
        let plot = Rect(x: bars.x, y: bars.y, width: bars.width - labelWidth, height: bars.height)
        func y(_ span: Nanoseconds) -> Int {
            plot.y + plot.height - Int(Double(plot.height) * Double(min(span, scale)) / Double(scale))
        }
        for ms: Nanoseconds in [0, 25, 50] {
            let lineY = min(y(ms * 1_000_000), plot.y + plot.height - 1)
            renderer.fill(Rect(x: plot.x, y: lineY, width: plot.width, height: 1), gridColor)
            let label = ms == 50 ? "50 ms" : "\(ms)"
            text.draw(label, x: plot.x + plot.width + 4,
                      y: min(max(bars.y, lineY - text.lineHeight / 2), bars.y + bars.height - text.lineHeight),
                      color: labelColor)
        }
        let visible = samples.suffix(plot.width / barWidth)
        let start = plot.x + plot.width - visible.count * barWidth
        for (i, sample) in visible.enumerated() {
            let x = start + i * barWidth
            let top = y(sample.interval)
            renderer.fill(Rect(x: x, y: top, width: barWidth, height: plot.y + plot.height - top),
                          sample.isHitch ? hitchColor : intervalColor)
            if sample.interval > scale { renderer.fill(Rect(x: x, y: plot.y, width: barWidth, height: 3), clippedColor) }
            if sample.target <= scale {
                renderer.fill(Rect(x: x, y: y(sample.target) - 1, width: barWidth, height: 2), targetColor)
            }
        }
        return plot
    }

    /// Where each legend entry goes in rows no wider than `width`: its
    /// offset from the legend's left edge and its row.
    static func legendLayout(width: Int, text: TextRenderer) -> [(x: Int, row: Int)] {
        let swatch = text.lineHeight / 2
        var x = 0, row = 0
        return legend.map { entry in
            let entryWidth = swatch + 4 + text.width(of: entry.words)
            if x > 0, x + entryWidth > width { x = 0; row += 1 }
            defer { x += entryWidth + 12 }
            return (x, row)
        }
    }

    /// Draws the legend from (x, y) in rows no wider than `width`: a swatch of each colour and its words.
    static func drawLegend(x: Int, y: Int, width: Int, text: TextRenderer) {
        let swatch = text.lineHeight / 2
        for (entry, place) in zip(legend, legendLayout(width: width, text: text)) {
            let top = y + place.row * text.lineHeight
            text.renderer.fill(Rect(x: x + place.x, y: top + (text.lineHeight - swatch) / 2, width: swatch, height: swatch),
                               entry.color)
            text.draw(entry.words, x: x + place.x + swatch + 4, y: top, color: labelColor)
        }
    }
}
