import Cadence
import CadenceSDL

/// The frame-time graph: one bar per recent frame, the target interval as a
/// line across, hitches in red, so an uneven cadence is visible at a glance.
struct FrameTimeGraph {
    /// Where the graph is drawn.
    var frame = Rect(x: 0, y: 0, width: 420, height: 140)
    /// The top of the scale: intervals this long fill the graph.
    var scale: Nanoseconds = 50_000_000

    /// Places the graph in the top-right corner.
    mutating func layout(width: Int, height: Int) {
        frame = Rect(x: width - frame.width - 16, y: 16, width: frame.width, height: frame.height)
    }

    /// Draws the intervals between recent presents (oldest first) against
    /// `target`, the interval the link is pacing for.
    func draw(_ renderer: Renderer, _ text: TextRenderer, intervals: [Nanoseconds?], target: Nanoseconds) {
        renderer.fill(frame, Color(0, 0, 0, 160))
        renderer.outline(frame, Color(70, 76, 96))
        let bars = intervals.suffix(frame.width / 2)
        for (i, interval) in bars.enumerated() {
            guard let interval else { continue }
            let h = min(frame.height, Int(Double(frame.height) * Double(interval) / Double(scale)))
            let hitch = interval > target + target / 2
            renderer.fill(Rect(x: frame.x + i * 2, y: frame.y + frame.height - h, width: 2, height: h),
                          hitch ? Color(255, 70, 80) : Color(80, 170, 255))
        }
        let lineY = frame.y + frame.height - min(frame.height, Int(Double(frame.height) * Double(target) / Double(scale)))
        renderer.line(from: (frame.x, lineY), to: (frame.x + frame.width - 1, lineY), Color(80, 220, 160))
        text.draw("frame time (0–\(scale / 1_000_000) ms), target line", x: frame.x + 6, y: frame.y + 4,
                  color: Color(170, 175, 190))
    }
}
