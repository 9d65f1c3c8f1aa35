import CadenceSDL
import Foundation

/// The on-screen FPS slider: drag it, or use the keys; it shows the requested
/// rate on the knob and the effective one beside it.
///
/// The slider holds the *request*; the display link decides what the display
/// can actually show. Showing both is the point: on a 60 Hz panel, asking for
/// 40 gives 30, and the player sees why.
struct FPSSlider {
    /// What the player asked for.
    enum Request: Equatable {
        /// The display's own rate (key 0).
        case displayRate
        /// A fixed cap in FPS.
        case fps(Double)
        /// The rate follows the game (key A).
        case adaptive
    }

    /// The current request.
    var request: Request
    /// The highest rate the slider offers.
    var maximum: Int
    /// Where the track is on screen; set by ``layout(width:height:)``.
    private(set) var track = Rect(x: 0, y: 0, width: 1, height: 1)
    private var dragging = false

    /// A slider starting at `request`, offering 1…`maximum` FPS.
    init(request: Request, maximum: Int) {
        self.request = request
        self.maximum = max(maximum, 30)
    }

    /// Places the track along the bottom of a window of the given size.
    mutating func layout(width: Int, height: Int) {
        track = Rect(x: 140, y: height - 46, width: max(100, width - 280), height: 8)
    }

    /// The FPS the knob stands at, given the rate actually in effect
    /// (needed for display-rate and adaptive requests).
    func knobFPS(effective: Double) -> Double {
        if case .fps(let fps) = request { return fps }
        return effective
    }

    /// The x coordinate of `fps` on the track.
    func x(for fps: Double) -> Int {
        let clamped = min(Double(maximum), max(1, fps))
        return track.x + Int((clamped - 1) / Double(maximum - 1) * Double(track.width))
    }

    /// The FPS under x on the track, rounded to a whole rate.
    func fps(atX x: Int) -> Double {
        let fraction = Double(x - track.x) / Double(track.width)
        return Double(min(maximum, max(1, Int((1 + fraction * Double(maximum - 1)).rounded()))))
    }

    /// Handles a mouse event; true when the request changed.
    mutating func handle(_ event: Event) -> Bool {
        let grab = Rect(x: track.x - 12, y: track.y - 16, width: track.width + 24, height: track.height + 32)
        switch event {
        case .mouseDown(let x, let y) where grab.contains(x: x, y: y):
            dragging = true
            return set(.fps(fps(atX: x)))
        case .mouseMotion(let x, _, true) where dragging:
            return set(.fps(fps(atX: x)))
        case .mouseUp:
            dragging = false
            return false
        default:
            return false
        }
    }

    /// Handles a slider key (arrows, 0–3, A); true when the request changed.
    /// `effective` is the rate in effect, the starting point for arrow keys.
    mutating func handle(key: Key, shift: Bool, effective: Double) -> Bool {
        switch key {
        case .left, .right:
            let step = (shift ? 10 : 1) * (key == .right ? 1 : -1)
            let from = knobFPS(effective: effective).rounded()
            return set(.fps(min(Double(maximum), max(1, from + Double(step)))))
        case .digit(1): return set(.fps(30))
        case .digit(2): return set(.fps(60))
        case .digit(3): return set(.fps(120))
        case .digit(0): return set(.displayRate)
        case .letter("a"): return set(.adaptive)
        default: return false
        }
    }

    private mutating func set(_ new: Request) -> Bool {
        defer { request = new }
        return new != request
    }

    /// Draws the track, tick marks at the rates the display can show, the knob
    /// and its labels.
    func draw(_ renderer: Renderer, _ text: TextRenderer, effective: Double, achievable: [Double]) {
        renderer.fill(Rect(x: track.x - 124, y: track.y - 30, width: track.width + 248, height: 58), Color(0, 0, 0, 150))
        text.draw("FPS cap", x: track.x - 110, y: track.y - 8, color: Color(170, 175, 190))
        renderer.fill(track, Color(70, 76, 96))
        for hz in achievable where hz >= 1 && hz <= Double(maximum) {
            let tx = x(for: hz)
            renderer.fill(Rect(x: tx, y: track.y - 4, width: 2, height: track.height + 8), Color(120, 200, 255, 160))
        }
        let knobX = x(for: knobFPS(effective: effective))
        let effectiveX = x(for: effective)
        renderer.fill(Rect(x: effectiveX - 2, y: track.y - 10, width: 4, height: track.height + 20), Color(80, 220, 160))
        renderer.fill(Rect(x: knobX - 7, y: track.y - 12, width: 14, height: track.height + 24), Color(255, 196, 60))
        let label: String
        switch request {
        case .displayRate: label = "display rate"
        case .fps(let fps): label = "\(formatRate(fps)) FPS"
        case .adaptive: label = "adaptive"
        }
        let caption = "\(label) → \(formatHz(effective)) effective"
        text.draw(caption, x: track.x + track.width - text.width(of: caption), y: track.y + 12, color: Color(235, 235, 240))
        text.draw("requested", x: knobX - 36, y: track.y - 30, color: Color(255, 196, 60))
    }
}

/// `"72 Hz"` or `"59.94 Hz"`: whole rates without decimals.
func formatHz(_ hz: Double) -> String {
    "\(formatRate(hz)) Hz"
}

/// `"72"` or `"59.94"`.
func formatRate(_ rate: Double) -> String {
    rate == rate.rounded() ? "\(Int(rate))" : String(format: "%.2f", rate)
}
