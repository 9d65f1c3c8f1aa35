/// Variable refresh for a game's window in three states, each with what
/// shows it, for the overlay, the trace and `display-probe`.
///
/// *Capable*: the display can (the driver's `vrr_capable`, the EDID's range).
/// *Requested*: the window asks for it and nothing refuses (fullscreen, the
/// user, `__GL_VRR_ALLOWED`, on X11 `_VARIABLE_REFRESH`). *In effect*: the
/// frames' glass times fall off the fixed grid, measured. Each implies the
/// one before; only the last lets the loop pace at any rate in the range.
@_spi(Programs) public struct VRRState: Equatable, Sendable {
    /// The display can refresh variably.
    public var isCapable: Bool { decision.isCapable }
    /// The window asks for variable refresh and nothing refuses it.
    public var isRequested: Bool { decision.isRequested }
    /// Glass times show it: requested, and the frames are off the fixed grid.
    public let isInEffect: Bool
    /// The frames judged off the grid, and how many were judged; nil with nothing measured.
    public let framesOffGrid: Int?, framesJudged: Int?
    /// What the policy decided; the words below are made from it when read,
    /// not with each frame's state (every frame's record carries one).
    private let decision: VRRDecision
    /// The fixed mode's rate the frames were measured against.
    private let rate: FrameRate?

    /// The state from the policy's `decision` and what `meter` measured
    /// against the fixed mode's `rate` (nil: no glass times measured).
    public init(decision: VRRDecision, meter: GridIntervalMeter?, rate: FrameRate?) {
        self.decision = decision
        self.rate = rate
        isInEffect = decision.isRequested && meter?.isOffGrid == true
        framesOffGrid = rate == nil ? nil : meter?.offGrid
        framesJudged = rate == nil ? nil : meter?.measured
    }

    /// What decided ``isCapable``, e.g. `"DRM vrr_capable (confidence high)"`.
    public var capableEvidence: String { "\(decision.refreshSource) (confidence \(decision.confidence.level))" }
    /// Why requested or not, e.g. `"window not fullscreen"`.
    public var requestedEvidence: String {
        decision.isRequested ? "fullscreen and nothing refuses"
            : decision.inactiveReasons.map(\.description).joined(separator: "; ")
    }
    /// Off-grid intervals among those measured, e.g. `"12/30 frames off the 60 Hz grid"`.
    public var inEffectEvidence: String {
        guard let framesOffGrid, let framesJudged, let rate else { return "no glass times measured" }
        return "\(framesOffGrid)/\(framesJudged) frames off the \(rate) grid"
    }
    /// Why the display is taken as fixed, in a few words: the evidence, or
    /// where nothing could be asked, what was missing (`"assumed: no connector"`).
    private var fixedWords: String {
        guard case .unknown(let reasons) = decision.confidence, let first = reasons.first else { return capableEvidence }
        return "assumed: " + (first.description.split(separator: ":").first.map(String.init) ?? "")
    }

    /// The state of a display nothing presents to (as `display-probe` sees it):
    /// never in effect, as no glass time shows it.
    public init(decision: VRRDecision) {
        self.init(decision: decision, meter: nil, rate: nil)
    }

    /// The furthest state reached, as the trace's `vrr` column writes it:
    /// `fixed`, `capable`, `requested` or `in-effect`.
    public var name: String {
        isInEffect ? "in-effect" : isRequested ? "requested" : isCapable ? "capable" : "fixed"
    }

    /// The furthest state reached and what shows it, in a few words for the
    /// overlay: `"fixed: driver vkms (no vrr_capable property)"`, `"capable;
    /// window not fullscreen"`, `"requested; 0/30 frames off the grid"`,
    /// `"in effect; 25/30 frames off the grid"`.
    public var summary: String {
        let frames = framesOffGrid.map { "\($0)/\(framesJudged ?? 0) frames off the grid" } ?? inEffectEvidence
        if isInEffect { return "in effect; \(frames)" }
        if isRequested { return "requested; \(frames)" }
        if isCapable { return "capable; \(requestedEvidence)" }
        return "fixed: \(fixedWords)"
    }

    /// `"capable yes · requested no · in effect no"`, for `display-probe`.
    public var line: String {
        func word(_ flag: Bool) -> String { flag ? "yes" : "no" }
        return "capable \(word(isCapable)) · requested \(word(isRequested)) · in effect \(word(isInEffect))"
    }
}
