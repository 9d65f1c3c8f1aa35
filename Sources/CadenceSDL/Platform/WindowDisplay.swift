@_spi(Programs) import Cadence

/// The display under a game's window, as SDL and the VRR detector see it,
/// wired into the backend: the backend paces for variable refresh only when
/// the detector says it is requested and the glass times show it in effect, and starts its vblank estimate
/// over when the display's mode changes.
///
/// Call ``refresh(moved:)`` on a fullscreen toggle or a vsync change, and
/// with `moved` on a window move or a display change (``Event/moved``,
/// ``Event/displayChanged``); never per frame, as detection reads sysfs and DRM.
@_spi(Programs) public final class WindowDisplay {
    /// The window whose display this is.
    public let window: Window
    /// The backend told about the display.
    public let backend: SDLBackend
    private let videoDriver: String
    private let headless: Bool
    private let vrr: VRROverride
    private let vrrRange: ClosedRange<FrameRate>?
    private let detector = VariableRefreshDetector()
    /// Where the displays are read from: SDL; a test puts a display of its own behind the window.
    var readDisplays: () -> [DisplayInfo] = Displays.all
    /// SDL's facts about the window's display; nil headless.
    public private(set) var info: DisplayInfo?
    /// The detector's report for it; nil headless.
    public private(set) var report: DisplayVRRReport?
    /// One line for an overlay or a log: the display's name and refresh.
    public private(set) var summary = ""
    /// What the backend was last told: the display's index, rate and decision.
    private var told: (index: Int32?, refreshHz: Int, decision: VRRDecision?)?

    /// Detects the display at once and tells `backend`.
    ///
    /// - Parameters:
    ///   - window: the game's window.
    ///   - videoDriver: SDL's video driver (`x11`, `wayland`, `offscreen`, ...).
    ///   - backend: the backend to tell of the display's timing and variable refresh.
    ///   - headless: no display to detect (the offscreen driver): paced by timer.
    ///   - vrr: the player's override of the detector (`auto` trusts it).
    ///   - vrrRange: a range to use where the detector cannot read one.
    public init(window: Window, videoDriver: String, backend: SDLBackend, headless: Bool = false,
                vrr: VRROverride = .auto, vrrRange: ClosedRange<FrameRate>? = nil) {
        self.window = window
        self.videoDriver = videoDriver
        self.backend = backend
        self.headless = headless
        self.vrr = vrr
        self.vrrRange = vrrRange
        refresh()
    }

    /// Re-reads the display, re-detects variable refresh and tells the
    /// backend, which starts its clock over. After a window `moved` (or
    /// entered an output) the backend is told only when the display, its
    /// rate or the decision changed: the vblanks are those of the same
    /// display. A Wayland window's first frame on an output brings such an
    /// event, and the clock started over then put the second frame on a
    /// stand-in grid again, a refresh late.
    public func refresh(moved: Bool = false) {
        if headless {
            info = nil
            report = nil
        } else {
            let displays = readDisplays()
            let index = window.displayIndex
            info = displays.first { $0.index == index }
            report = detector.detect(displays: displays, videoDriver: videoDriver, windowFullscreen: window.isFullscreen,
                                     windowProperty: X11VariableRefresh.property(of: window),
                                     override: vrr, overrideRange: vrrRange)
                .first { $0.display.index == index }
        }
        let now = (index: info?.index, refreshHz: info?.refreshHz ?? 0, decision: report?.decision)
        if !moved || told.map({ $0 != now }) ?? true {
            backend.displayChanged(refreshHz: now.refreshHz, decision: now.decision)
        }
        told = now
        if headless {
            summary = "headless (offscreen), no refresh: paced by timer"
        } else if let info, let report {
            let rate = info.refreshHz > 0 ? "\(info.refreshHz) Hz" : "refresh rate unknown"
            let kind = report.decision.refresh == .fixed && report.decision.maximumRate == nil
                ? "fixed refresh" : report.decision.summary
            summary = "\(Self.readableName(info.name)), \(rate), \(kind)"
        } else {
            summary = "unknown display"
        }
    }

    /// SDL's display name without the stray quotes and colons some drivers
    /// leave in it (XWayland's reads `XWAYLAND0 58":`).
    static func readableName(_ name: String) -> String {
        let edge: Set<Character> = [":", " ", "\t"]
        var kept = Substring(name.filter { $0 != "\"" })
        while let c = kept.first, edge.contains(c) { kept.removeFirst() }
        while let c = kept.last, edge.contains(c) { kept.removeLast() }
        return kept.isEmpty ? "display" : String(kept)
    }
}
