/// Where a frame's time on the glass comes from, from the best evidence to none.
///
/// Statistics judge a frame on its glass time, and the run summary, the trace
/// and the overlay say which kind each figure rests on: only ``feedback`` and
/// ``vblank`` are measured on the platform's own clock.
public enum GlassTimeSource: String, Sendable, CaseIterable {
    /// The platform said when this very frame reached the glass (Wayland's
    /// `wp_presentation` feedback, or the simulated display). Such feedback
    /// comes a frame or two after the present; until then the frame carries
    /// one of the other kinds.
    case feedback
    /// The first vblank of a measured platform clock (X Present's MSC/UST)
    /// after the present completed: the frame cannot have been shown sooner,
    /// and a present that has completed is shown at the next vblank.
    case vblank
    /// The first vblank after the present of an estimated clock: XWayland's
    /// own Present clock (not the compositor's), or a grid fitted to the times
    /// presents return; or, where the platform reports each frame, the vblank
    /// after the present of a frame whose report never came, or said the
    /// compositor discarded it (shown never, or only with a later frame).
    case estimated
    /// No glass time: vsync off, or presents that do not wait for a vblank.
    /// The frame is taken as shown when its present returned, and it counts
    /// as late only when it was submitted after its target (there is no
    /// glass to be late for).
    case inferred

    /// Whether the time is on the platform's own clock.
    public var isMeasured: Bool { self == .feedback || self == .vblank }

    /// Whether a glass (a vblank or the platform's report) stands behind the time.
    public var hasGlass: Bool { self != .inferred }

    /// The kind in words, for the run summary and the overlay.
    public var words: String {
        switch self {
        case .feedback: "measured (the platform's per-frame feedback)"
        case .vblank: "measured (the platform clock's vblank after the present)"
        case .estimated: "estimated (the vblank of an estimated clock)"
        case .inferred: "inferred (when the present returned; late = submitted after target)"
        }
    }
}
