@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
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
        let place = scene.showGraph && !(scene.showHitchDemo && scene.isCompact)
            ? scene.statisticsPlace(besides: overlay.panel) : nil
        let statisticsPanel = place?.panel
        let overlayPanel = place?.coversOverlay == true ? nil : overlay.panel
        scene.beginFrame()
        if scene.showHitchDemo {
            scene.drawHitchDemo(timestamp: TimeUnit.seconds(frame.timestampNanoseconds - start),
                                target: TimeUnit.seconds(frame.targetTimestampNanoseconds - start), angle: angle,
                                caption: HitchDemo.caption(native: frame.timing.nativeRate.hz),
                                below: [overlayPanel, statisticsPanel].compactMap { $0 })
        } else {
            scene.drawSprite(angle: angle, clearOf: overlay.panel, beside: overlayPanel == nil ? statisticsPanel : nil)
        }
        if overlayPanel != nil { scene.draw(overlay) }
        if let statisticsPanel { scene.statistics.draw(x: statisticsPanel.x, y: statisticsPanel.y) }
        let effective = sliderRate(frame)
        let display = Self.displayWords(frame.timing)
        let caption = scene.showHitchDemo ? "Hitch demo: \(rateText(effective)) FPS on this \(display)"
            : slider.caption(effective: effective, display: display)
        scene.drawSlider(slider, effective: effective, caption: caption, achievable: status.achievableRates)
        scene.endFrame()
    }

    /// The display for the slider's caption: "60 Hz display".
    private static func displayWords(_ timing: DisplayTiming) -> String {
        switch timing {
        case .fixed(let grid): "\(hzText(grid.rate.hz)) display"
        case .variable(let minimum, let maximum): "\(rateText(minimum.hz))–\(hzText(maximum.hz)) VRR display"
        case .unsynced: "timer-paced display"
        }
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
        return "\(Int(achieved.rounded()))/\(rateText(rate.hz)) FPS, \(why)"
    }
}
