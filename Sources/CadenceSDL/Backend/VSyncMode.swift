/// How presents relate to the display's vertical blank.
///
/// - `on`: a present waits for the next vblank; no tearing, present blocks.
/// - `off`: present at once; may tear; the presenter's timer does all pacing.
/// - `adaptive`: late-swap tearing: wait for vblank when on time, but tear
///   rather than wait a whole extra refresh when a frame is late (GL
///   `EXT_swap_control_tear`, swap interval -1). Where the driver lacks it, the
///   renderer falls back to `on` and says so.
public enum VSyncMode: String, CaseIterable, Sendable {
    /// A present waits for the next vblank: no tearing.
    case on
    /// A present goes at once and may tear; the presenter's timer paces.
    case off
    /// Waits for the vblank when on time, tears rather than wait a refresh when late.
    case adaptive
}
