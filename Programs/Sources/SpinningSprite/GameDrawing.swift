import Cadence
import CadenceSDL
import Foundation

/// What the sample draws each frame: the sprite or the hitch demo, its own
/// overlay (what was asked and what it gives, the display, the keys), the
/// library's statistics panel and the slider.
extension Game {
    func draw(_ frame: DisplayLinkFrame, on scene: Scene, status: DisplayStatus) {
        let angle = angle(at: frame.targetTimestampNanoseconds)
        let overlay = scene.overlay(overlayLines(frame, status))
        scene.statistics.clockSource = status.clock
        scene.statistics.limitReason = limitReason(frame)
        // In a small window the demo needs the space the panel would take below the overlay.
        let statisticsPanel = scene.showGraph && !(scene.showHitchDemo && scene.isCompact)
            ? scene.statisticsPlace(besides: overlay.panel) : nil
        scene.beginFrame()
        if scene.showHitchDemo {
            let native = frame.timing.nativeRate.hz
            scene.drawHitchDemo(timestamp: TimeUnit.seconds(frame.timestampNanoseconds - start),
                                target: TimeUnit.seconds(frame.targetTimestampNanoseconds - start), angle: angle,
                                caption: "The rate flips \(formatRate(native.rounded())) / \(formatRate((native / 2).rounded())) "
                                    + "FPS each second: the upper jumps, the lower glides",
                                below: [overlay.panel] + (statisticsPanel.map { [$0] } ?? []))
        } else {
            scene.drawSprite(angle: angle, clearOf: overlay.panel)
        }
        scene.draw(overlay)
        if let statisticsPanel { scene.statistics.draw(x: statisticsPanel.x, y: statisticsPanel.y) }
        let effective = sliderRate(frame)
        let display = Self.displayWords(frame.timing)
        let caption = scene.showHitchDemo ? "Hitch demo: \(formatRate(effective)) FPS on this \(display)"
            : slider.caption(effective: effective, display: display)
        scene.drawSlider(slider, effective: effective, caption: caption, achievable: status.achievableRates)
        scene.endFrame()
    }

    /// The display for the slider's caption: "60 Hz display".
    private static func displayWords(_ timing: DisplayTiming) -> String {
        switch timing {
        case .fixed(let grid): "\(formatHz(grid.rate.hz)) display"
        case .variable(let minimum, let maximum): "\(formatRate(minimum.hz))–\(formatHz(maximum.hz)) VRR display"
        case .unsynced: "timer-paced display"
        }
    }

    /// The overlay: what was asked and what it gives, the display, vsync,
    /// latency and the keys. The figures (achieved FPS, late frames, the
    /// hitch ratio, the graph) are the library's statistics panel beside it.
    private func overlayLines(_ frame: DisplayLinkFrame, _ status: DisplayStatus) -> [(text: String, isWarning: Bool)] {
        let rate = frame.effectiveRate
        var requested: String
        switch slider.request {
        case .displayRate: requested = "display rate"
        case .fps(let fps): requested = "\(formatRate(fps)) FPS"
        case .adaptive: requested = "adaptive"
        case .uncapped: requested = "uncapped"
        }
        if scene?.showHitchDemo == true { requested = "hitch demo" }
        var planned = frame.isPaced ? formatHz(rate.rate.hz) : "nothing (vsync off)"
        if rate.vsyncStride > 1 { planned += " (every \(rate.vsyncStride) vblanks)" }
        if rate.presentsPerFrame > 1 { planned += " (each frame shown \(rate.presentsPerFrame)×, LFC)" }
        let inputToGlass = statistics.recentLatencyPercentile(0.5).map {
            String(format: "%.2f", TimeUnit.milliseconds($0))
        } ?? "–"
        let head = [
            ("requested \(requested)   planned \(planned)", false),
            ("display   \(Self.displayLine(status.summary, frame.timing))", false),
        ]
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
    private static func displayLine(_ summary: String, _ timing: DisplayTiming) -> String {
        guard summary.contains("refresh rate unknown"), case .fixed(let grid) = timing else { return summary }
        return summary.replacingOccurrences(of: "refresh rate unknown",
                                            with: "\(formatHz(grid.rate.hz)) (measured)")
    }

    /// Why fewer frames reach the screen than the link plans, for the
    /// statistics panel's line; nil while they keep up (or nothing paces).
    private func limitReason(_ frame: DisplayLinkFrame) -> String? {
        let rate = frame.effectiveRate.rate
        guard frame.isPaced, let achieved = statistics.achievedFPS, monitor.windowSeconds >= 1,
              achieved < 0.9 * rate.hz else { return nil }
        let why = monitor.presentCost > 0.25 * Double(rate.period)
            ? "presents take \(String(format: "%.1f", monitor.presentCost / 1e6)) ms"
            : "can't keep up"
        return "\(Int(achieved.rounded()))/\(formatRate(rate.hz)) FPS, \(why)"
    }

    /// The latency mode as the overlay names it, with the thread's scheduling
    /// class when low: the real-time class is what keeps just-in-time frames
    /// on time on a busy machine, and not every system grants it.
    private func latencyDescription(_ status: DisplayStatus) -> String {
        guard latency == .low else { return "smooth" }
        return status.realTimeClass ? "low (just in time, real-time)" : "low (just in time)"
    }
}
