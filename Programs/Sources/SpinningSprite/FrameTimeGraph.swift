import Cadence
import CadenceSDL

/// The frame-time graph: one bar per recent frame, each coloured against the
/// interval the link planned *for that frame* (so a rate change does not
/// recolour the past), a line at each bar's target, and an axis that grows to
/// fit the longest recent interval, so an uneven cadence is visible at a glance.
struct FrameTimeGraph {
    /// One bar: the interval before a present, and the interval planned for it.
    struct Sample {
        var interval: Nanoseconds
        var target: Nanoseconds
    }

    /// Axis tops to choose from, in ms: the smallest that holds every bar.
    static let scales: [Int64] = [20, 35, 50, 100, 200, 500, 1_000]
    /// Height of the title strip above the bars.
    static let titleHeight = 20

    /// Where the graph (title strip and bars) is drawn; zero size hides it.
    var frame = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The axis top for `samples`: the smallest scale holding every interval
    /// and 1.25× every target (the longest bar is clipped at the last scale).
    static func scale(for samples: ArraySlice<Sample>) -> Nanoseconds {
        let needed = samples.map { max($0.interval, $0.target + $0.target / 4) }.max() ?? 0
        let ms = scales.first { $0 * 1_000_000 >= needed } ?? scales[scales.count - 1]
        return ms * 1_000_000
    }

    /// Draws `samples` (oldest first), as many as fit, two pixels a bar.
    func draw(_ renderer: Renderer, _ text: TextRenderer, samples: [Sample]) {
        guard frame.width > 0, frame.height > Self.titleHeight else { return }
        let bars = Rect(x: frame.x, y: frame.y + Self.titleHeight, width: frame.width, height: frame.height - Self.titleHeight)
        renderer.fill(frame, Color(0, 0, 0, 160))
        renderer.outline(bars, Color(70, 76, 96))
        let visible = samples.suffix(bars.width / 2)
        let scale = Self.scale(for: visible)
        func height(_ span: Nanoseconds) -> Int { min(bars.height, Int(Double(bars.height) * Double(span) / Double(scale))) }
        for (i, sample) in visible.enumerated() {
            let x = bars.x + i * 2
            let h = height(sample.interval)
            let hitch = sample.interval > sample.target + sample.target / 2
            renderer.fill(Rect(x: x, y: bars.y + bars.height - h, width: 2, height: h),
                          hitch ? Color(255, 70, 80) : Color(80, 170, 255))
            let targetY = bars.y + bars.height - height(sample.target)
            renderer.fill(Rect(x: x, y: targetY - 1, width: 2, height: 2), Color(90, 255, 170))
        }
        text.draw("frame time, 0–\(scale / 1_000_000) ms (green: target)", x: frame.x + 6, y: frame.y + 1,
                  color: Color(170, 175, 190))
    }
}
