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
        /// Vsync off, no cap: as fast as the game goes (key U).
        case uncapped
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

    /// The panel holding caption, presets and track, along the bottom.
    private(set) var panel = Rect(x: 0, y: 0, width: 1, height: 1)
    /// Height of the panel.
    static let panelHeight = 66
    /// The preset buttons, right to left from the panel's right edge.
    private(set) var presets: [(request: Request, label: String, area: Rect)] = []

    /// Places the panel along the bottom of a window of the given size, with
    /// presets for 30, 60, 120, 144 (only where the display shows 144) and the
    /// display's own rate.
    mutating func layout(width: Int, height: Int, displayRate: Double) {
        panel = Rect(x: 8, y: height - Self.panelHeight - 6, width: width - 16, height: Self.panelHeight)
        track = Rect(x: panel.x + 30, y: panel.y + 34, width: max(100, panel.width - 30 - 48), height: 8)
        var choices: [(Request, String)] = [(.fps(30), "30"), (.fps(60), "60"), (.fps(120), "120")]
        if displayRate >= 144 { choices.append((.fps(144), "144")) }
        choices.append((.displayRate, "display"))
        var right = panel.x + panel.width - 6
        presets = choices.reversed().map { request, label in
            let w = label == "display" ? 84 : 38
            right -= w + 4
            return (request, label, Rect(x: right + 4, y: panel.y + 5, width: w, height: 22))
        }.reversed()
    }

    /// The FPS the knob stands at, given the rate actually in effect
    /// (needed for display-rate, adaptive and uncapped requests).
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
        case .mouseDown(let x, let y, .left) where presets.contains { $0.area.contains(x: x, y: y) }:
            return set(presets.first { $0.area.contains(x: x, y: y) }!.request)
        case .mouseDown(let x, let y, .left) where grab.contains(x: x, y: y):
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

    /// Handles a slider key (arrows, 0–3, A, U); true when the request changed.
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
        case .letter("u"): return set(.uncapped)
        default: return false
        }
    }

    private mutating func set(_ new: Request) -> Bool {
        defer { request = new }
        return new != request
    }

    /// Draws the panel: a caption saying what the request gives on this
    /// display, the presets, the track with its range at the ends, a labelled
    /// mark at each rate the display shows evenly, the rate in effect (green)
    /// and the requested one (the knob).
    ///
    /// - Parameters:
    ///   - effective: the rate in effect, from the link's frame.
    ///   - caption: what the request gives, from ``caption(effective:display:)``.
    ///   - achievable: the rates the display shows evenly.
    func draw(_ renderer: Renderer, _ text: TextRenderer, effective: Double, caption: String, achievable: [Double]) {
        renderer.fill(panel, Color(0, 0, 0, 160))
        let dim = Color(170, 175, 190)
        // Where the presets leave too little room, the caption drops its display ("on this ...").
        let room = (presets.first?.area.x ?? panel.x + panel.width) - panel.x - 20
        let shortened = caption.range(of: " on this ").map { String(caption[..<$0.lowerBound]) } ?? caption
        text.draw(text.width(of: caption) <= room ? caption : shortened, x: panel.x + 10, y: panel.y + 6)
        for preset in presets {
            let selected = preset.request == request
            renderer.fill(preset.area, selected ? Color(255, 196, 60, 90) : Color(70, 76, 96, 200))
            text.draw(preset.label, x: preset.area.x + (preset.area.width - text.width(of: preset.label)) / 2,
                      y: preset.area.y + 2)
        }
        renderer.fill(track, Color(70, 76, 96))
        text.draw("1", x: track.x - 8 - text.width(of: "1"), y: track.y - 6, color: dim)
        text.draw("\(maximum)", x: track.x + track.width + 8, y: track.y - 6, color: dim)
        // Marks at the evenly shown rates, at least 8 px apart (at low rates
        // R/5, R/6, ... crowd together), labelled where there is room for the label.
        var labelledUpTo = Int.max, markedUpTo = Int.max
        for hz in achievable.sorted(by: >) where hz >= 1 && hz <= Double(maximum) {
            let tx = x(for: hz)
            guard tx + 8 <= markedUpTo else { continue }
            markedUpTo = tx
            renderer.fill(Rect(x: tx - 1, y: track.y - 4, width: 2, height: track.height + 8), Color(120, 200, 255, 200))
            let label = formatRate(hz.rounded())
            let lx = tx - text.width(of: label) / 2
            if lx + text.width(of: label) + 6 < labelledUpTo {
                text.draw(label, x: lx, y: track.y + 11, color: Color(120, 200, 255))
                labelledUpTo = lx
            }
        }
        let knobX = x(for: knobFPS(effective: effective))
        renderer.fill(Rect(x: knobX - 6, y: track.y - 8, width: 12, height: track.height + 16), Color(255, 196, 60))
        // The rate in effect over the knob, and taller, so it shows where the two meet.
        let effectiveX = x(for: effective)
        renderer.fill(Rect(x: effectiveX - 2, y: track.y - 11, width: 4, height: track.height + 22), Color(80, 220, 160))
    }

    /// "50 FPS cap: 30 FPS on this 60 Hz display", for `display` in words
    /// ("60 Hz display") and the rate in `effective` from the link's frame;
    /// uncapped, nothing plans a rate, so `effective` is the achieved one.
    func caption(effective: Double, display: String) -> String {
        let what: String
        switch request {
        case .displayRate: what = "Display rate"
        case .fps(let fps): what = "\(formatRate(fps)) FPS cap"
        case .adaptive: what = "Adaptive"
        case .uncapped: return "Uncapped: \(formatRate(effective.rounded())) FPS, vsync off"
        }
        return "\(what): \(formatRate(effective)) FPS on this \(display)"
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
