@_spi(Programs) import Cadence
import CadenceSDL

/// The hitch demo (T): the rate flips by itself between the display's rate and
/// half of it, a second each, and two objects show what `timestamp` and
/// `targetTimestamp` do with that change: the one placed from `timestamp`
/// jumps, the one placed from `targetTimestamp` glides.
struct HitchDemo {
    /// The demo's objects move this many pixels per second of their clock.
    static let speed = 800.0
    /// When the rate next flips, while the demo runs.
    private var flipAt: Nanoseconds?
    private var atHighRate = false

    /// The rate at `now` on a display whose own rate is `native` Hz.
    mutating func rateLimit(at now: Nanoseconds, native: Double) -> FrameRateLimit {
        if now >= flipAt ?? now {
            atHighRate.toggle()
            flipAt = now + TimeUnit.nanosecondsPerSecond
        }
        return .range(FrameRateRange(fps: atHighRate ? native : native / 2))
    }

    /// The demo was turned off: it starts with a flip when turned on again.
    mutating func stop() {
        flipAt = nil
    }

    /// The line under the objects, for a display whose own rate is `native` Hz.
    static func caption(native: Double) -> String {
        "The rate flips \(rateText(native.rounded())) / \(rateText((native / 2).rounded())) "
            + "FPS each second: the upper jumps, the lower glides"
    }
}

extension Scene {
    /// The hitch demo: two objects crossing the window at ``HitchDemo/speed``,
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
            let x = Int((time * HitchDemo.speed).truncatingRemainder(dividingBy: travel)) - size
            renderer.fill(Rect(x: 0, y: y - 1, width: width, height: 2), Color(50, 54, 70))
            drawSprite(angle: angle, centreX: x + size / 2, centreY: y, size: size)
            text.draw(label, x: 12, y: y + size / 2 + 2, color: color)
        }
        text.draw(caption, x: max(8, (width - text.width(of: caption)) / 2), y: bottom, color: Color(235, 235, 240))
    }
}
