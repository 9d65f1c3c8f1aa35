@_spi(Programs) import Cadence
import Foundation
import CadenceSDL

/// The sample's own overlay, top left: what was asked and what it gives,
/// the display, vsync, latency and the keys.
extension Game {
    /// The overlay: what was asked and what it gives, the display, vsync,
    /// latency and the keys. The figures (achieved FPS, late frames, the
    /// hitch ratio, the graph) are the library's statistics panel beside it.
    func overlayLines(_ frame: DisplayLinkFrame, _ status: DisplayStatus) -> [(text: String, isWarning: Bool)] {
        let rate = frame.effectiveRate
        var requested: String
        switch slider.request {
        case .displayRate: requested = "display rate"
        case .cap(let fps): requested = "\(rateText(fps)) FPS"
        case .range(let range): requested = "\(rateText(range.preferred)) FPS preferred"
        case .adaptive: requested = "adaptive"
        case .uncapped: requested = "uncapped"
        }
        if scene?.showHitchDemo == true { requested = "hitch demo" }
        var planned = frame.isPaced ? hzText(rate.rate.hz) : "nothing (vsync off)"
        if rate.vsyncStride > 1 { planned += " (every \(rate.vsyncStride) vblanks)" }
        if rate.presentsPerFrame > 1 { planned += " (each frame shown \(rate.presentsPerFrame)×, LFC)" }
        let inputToGlass = statistics.recentLatencyPercentile(0.5).map {
            String(format: "%.2f", TimeUnit.milliseconds($0))
        } ?? "–"
        var head = [
            ("requested \(requested)   planned \(planned)", false),
            ("display   \(Self.displayLine(status.summary, frame.timing))", false),
        ]
        if let wait = lastDisplayWait, frame.timestampNanoseconds - wait.endedAt < Self.displayWaitShown {
            head.append(("          stopped answering: waited \(String(format: "%.1f", TimeUnit.seconds(wait.duration))) s", true))
        }
        // A small window keeps its room for the statistics panel: the rest is in --help.
        if scene?.isCompact == true { return head + [("keys      G statistics  F fullscreen  Q quit  (--help: all)", false)] }
        return head + [
            ("window    \(status.window)   vsync \(status.vsync)", false),
            ("latency   \(latencyDescription(status)), input to glass p50 \(inputToGlass) ms  (L)", false),
            ("keys      ←/→ ±1 (shift ±10)  1/2/3 = 30/60/120  0 display", false),
            ("          A adaptive  U uncapped  L latency  F fullscreen  V vsync", false),
            ("          H hitch  G statistics  T demo  Q quit", false),
        ]
    }

    /// The display's summary, its refresh as the link knows it where SDL
    /// reports none: one rate on every line of the screen.
    static func displayLine(_ summary: String, _ timing: DisplayTiming) -> String {
        guard summary.contains("refresh rate unknown"), case .fixed(let grid) = timing else { return summary }
        return summary.replacingOccurrences(of: "refresh rate unknown",
                                            with: "\(hzText(grid.rate.hz)) (measured)")
    }

    /// The latency mode as the overlay names it, with the thread's scheduling
    /// class when low: the real-time class is what keeps just-in-time frames
    /// on time on a busy machine, and not every system grants it.
    private func latencyDescription(_ status: DisplayStatus) -> String {
        guard latency == .low else { return "smooth" }
        return status.realTimeClass ? "low (just in time, real-time)" : "low (just in time)"
    }
}

extension Scene {
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
}
