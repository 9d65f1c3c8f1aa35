@_spi(Programs) import Cadence

/// The frame statistics as a panel drawn over the game, with the game's
/// renderer: the FPS achieved on the glass, the rate planned, late frames and
/// the hitch ratio and what made frames late, the display clock, a line for
/// why the rate is what it is, what a frame costs the loop's thread in CPU
/// (its pacing beside its work) and its scheduling class, and the frame-time
/// graph with its legend.
///
/// A ``GameWindow`` keeps one: ``GameWindow/drawStatistics(x:y:)`` draws it
/// (and a key can toggle it). Standalone, hand it every record in
/// `FrameLoopClient.framePresented(_:_:)` and call ``draw(x:y:)`` at the
/// end of `FrameLoopClient.runFrame(_:_:)`.
///
/// The panel's size is fixed (``columns`` characters by ``textRows`` rows
/// of text) so that it does not change with its text: a long line (a clock's
/// whole name, why the rate is what it is) wraps under its value, and the
/// graph's scale is fixed (0–50 ms).
@_spi(Programs) public final class StatisticsOverlay {
    /// What the panel's text is measured in: its width in characters of the monospaced font.
    public static let columns = 44
    /// The rows of text: the nine lines, and one more for a long one (the
    /// clock's whole name, the rate's reason) to wrap into.
    public static let textRows = 10
    /// The hitch ratio a good experience stays within, ms/s: above it, the figure turns amber.
    public static let goodHitchRatio = 5.0

    /// Where the display's vblank times come from, e.g. `X Present MSC/UST`
    /// (``GameWindow`` keeps it current from ``SDLBackend/clockSource``).
    public var clockSource = "–"
    /// The loop thread's scheduling class, e.g. `fifo (kernel)` (``GameWindow``
    /// keeps it current from ``LoopScheduling/words``).
    public var scheduling = "–"
    /// Why fewer frames reach the glass than planned, in a few words, where
    /// the game can tell (the sample: "47/60 FPS, presents take 9.1 ms");
    /// nil to show instead what holds the planned rate
    /// (`FrameStatistics.rateExplanation`: the request, the display, the
    /// presents or the work).
    public var limitReason: String?
    /// The panel's size in pixels: fixed for the font.
    public let size: (width: Int, height: Int)

    private var figures = OverlayFigures()
    /// The lines last drawn, and the glass time they were made at: the
    /// figures are read four times a second, so that they can be read at
    /// all and the text is not rendered again every frame.
    private var shown: (lines: [(text: String, isWarning: Bool)], at: Nanoseconds?, inputs: [String?]) = ([], nil, [])
    static let textRefresh: Nanoseconds = 250_000_000
    /// Where the last ``draw(x:y:)`` put the graph's bars (for tests).
    private(set) var graphPlot = Rect(x: 0, y: 0, width: 0, height: 0)
    private let text: TextRenderer
    private let padding = 6
    private let graphHeight: Int
    private let legendRows: Int

    /// A panel drawn with `renderer` in DejaVu Sans Mono at `fontSize` pixels.
    public init(renderer: Renderer, fontSize: Int = 14) throws {
        text = try TextRenderer(renderer: renderer, size: fontSize)
        let width = Self.columns * text.width(of: "0") + 2 * padding
        graphHeight = text.lineHeight * 3
        legendRows = (FrameTimeGraph.legendLayout(width: width - 2 * padding, text: text).last?.row ?? 0) + 1
        size = (width, padding * 2 + (Self.textRows + legendRows) * text.lineHeight + graphHeight + 4)
    }

    /// The run's statistics, from every frame recorded.
    public var statistics: FrameStatistics { figures.run }

    /// Adds a frame that reached the glass (from `FrameLoopClient.framePresented(_:_:)`).
    public func record(_ record: FrameRecord) { figures.record(record) }

    /// The next frame follows a pause (the window was hidden): the time
    /// between is not a frame interval.
    public func resetInterval() { figures.resetInterval() }

    /// The panel's lines: each a text and whether it warns.
    var lines: [(text: String, isWarning: Bool)] {
        let achieved = figures.run.achievedFPS.map { "\(fixed($0, 1)) FPS" } ?? "– FPS"
        let planned = figures.plannedRate.map { "planned \(fixed($0.hz, 2)) Hz" } ?? "not paced (uncapped)"
        let window = figures.window
        let causes = window.lateCauses
        let why = LateCause.allCases.compactMap { cause in causes[cause].map { "\(cause.name) \($0)" } }
        let seconds = figures.windowSeconds
        let span = seconds < 10 ? fixed(seconds, 1) : fixed(seconds, 0)
        return [
            ("achieved \(achieved)   \(planned)", false),
            ("late \(window.lateCount)  hitch ratio \(fixed(window.hitchRatio, 1)) ms/s  last \(span) s",
             window.hitchRatio > Self.goodHitchRatio),
            ("cause  \(why.isEmpty ? "–" : why.joined(separator: "  "))", window.hitchRatio > Self.goodHitchRatio),
            ("clock  \(clockSource)", false),
            ("glass  \(figures.glassWords)", false),
            ("vrr    \(figures.variableRefresh?.summary ?? "–")", false),
            rateLine,
            (cpuLine, false),
            ("sched  \(scheduling)", false),
        ]
    }

    /// What a frame costs the loop's thread since the rate last changed:
    /// `cpu    pacing 0.05 ms (0.7%) work 1.20 ms`, the pacing's share of a core in brackets.
    private var cpuLine: String {
        guard let cpu = figures.window.cpuPerFrame else { return "cpu    –" }
        let share = cpu.span > 0 ? fixed(Double(cpu.pacing) / Double(cpu.span) * 100, 1) : "–"
        return "cpu    pacing \(fixed(Double(cpu.pacing) / 1e6, 2)) ms (\(share)%) work \(fixed(Double(cpu.work) / 1e6, 2)) ms"
    }

    /// The last line: the game's reason where it gave one, else what holds
    /// the planned rate, a warning where that is the machine (presents, work);
    /// with nothing pacing the latest frame, that nothing does.
    private var rateLine: (text: String, isWarning: Bool) {
        if let limitReason { return ("below plan: \(limitReason)", true) }
        if figures.lastGlass != nil, figures.plannedRate == nil {
            return ("rate   uncapped: as fast as frames are made", false)
        }
        let heldBack = switch figures.run.rateReason { case .presents?, .work?: true; default: false }
        return (figures.run.rateExplanation.map { "rate   \($0)" } ?? "", heldBack)
    }

    /// Draws the panel with its top-left corner at (x, y) in the window's
    /// pixels: a game's logical size scales the game, not its statistics
    /// (``Renderer/inWindowPixels(_:)``). Returns where it is, in window pixels.
    @discardableResult
    public func draw(x: Int = 12, y: Int = 12) -> Rect {
        text.renderer.inWindowPixels { drawPanel(x: x, y: y) }
    }

    /// The panel at (x, y), in the renderer's coordinates as they are.
    private func drawPanel(x: Int, y: Int) -> Rect {
        let panel = Rect(x: x, y: y, width: size.width, height: size.height)
        let renderer = text.renderer
        renderer.fill(panel, Color(0, 0, 0, 170))
        let inner = x + padding
        var lineY = y + padding
        let inputs = [clockSource, limitReason, scheduling], now = figures.lastGlass
        let stale: Bool
        if let now, let at = shown.at { stale = now - at >= Self.textRefresh } else { stale = true }
        if stale || inputs != shown.inputs { shown = (lines, now, inputs) }
        for line in Self.rows(shown.lines) {
            text.draw(line.text, x: inner, y: lineY,
                      color: line.isWarning ? Color(255, 196, 60) : Color(235, 235, 240))
            lineY += text.lineHeight
        }
        let graphTop = y + padding + Self.textRows * text.lineHeight + 2
        let bars = Rect(x: inner, y: graphTop, width: size.width - 2 * padding, height: graphHeight)
        graphPlot = FrameTimeGraph.draw(figures.samples, in: bars, renderer: renderer, text: text)
        FrameTimeGraph.drawLegend(x: inner, y: bars.y + bars.height + 2, width: bars.width, text: text)
        return panel
    }

    /// Call once a frame after drawing: the text cache forgets strings no longer drawn.
    public func endFrame() { text.endFrame() }

    /// `lines` as the panel's rows: a line wider than ``columns`` wraps at
    /// its last space that fits (mid-word where none does), the rest indented
    /// under the line's value. Where that needs more than ``textRows`` rows,
    /// the earliest wrapped lines keep only their first row, cut with "…" (the
    /// last line, why the rate is what it is, matters most), so that no text
    /// can widen or lengthen the panel.
    static func rows(_ lines: [(text: String, isWarning: Bool)]) -> [(text: String, isWarning: Bool)] {
        var wrapped = lines.map { line in wrap(line.text).map { (text: $0, isWarning: line.isWarning) } }
        while wrapped.joined().count > textRows, let long = wrapped.firstIndex(where: { $0.count > 1 }) {
            wrapped[long] = [(cut(wrapped[long][0].text), wrapped[long][0].isWarning)]
        }
        let rows = Array(wrapped.joined())
        guard rows.count > textRows else { return rows }
        return rows.prefix(textRows - 1) + [(cut(rows[textRows - 1].text), rows[textRows - 1].isWarning)]
    }

    /// `text` in rows of at most ``columns`` characters, each after the first
    /// indented to where the line's value starts.
    private static func wrap(_ text: String) -> [String] {
        let indent = Array(repeating: Character(" "), count: 7)   // "clock  ", "rate   ": where values start
        var rows: [String] = [], rest = Array(text)
        while rest.count > columns {
            // The last space that fits, past the indent (so that every row carries text).
            let cut = (indent.count + 1...columns).last { rest[$0] == " " } ?? columns
            rows.append(String(rest[..<cut]))
            rest = indent + rest[cut...].drop { $0 == " " }
        }
        return rows + [String(rest)]
    }

    /// `row` marked as cut short, still within ``columns``.
    private static func cut(_ row: String) -> String { String(row.prefix(columns - 1)) + "…" }

    /// `value` with `decimals` digits after the point, without Foundation.
    private func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        guard decimals > 0 else { return "\(scaled)" }
        let whole = scaled / Int(scale), part = String(abs(scaled) % Int(scale) + Int(scale)).dropFirst()
        return "\(whole).\(part)"
    }
}
