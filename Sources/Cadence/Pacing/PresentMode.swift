/// How the presenter turns a frame's target into the moment it presents.
package enum PresentMode: String, Sendable, Equatable {
    /// Fixed refresh with vsync: present in the refresh before the target
    /// vblank; the display shows it on the vblank.
    case vsync
    /// Vsync off, or variable refresh in effect: present at the target time
    /// itself (present-after-minimum-duration); the frame shows when presented.
    case timed

    /// The mode a display's timing calls for.
    public init(for timing: DisplayTiming) {
        switch timing {
        case .fixed: self = .vsync
        case .variable, .unsynced: self = .timed
        }
    }
}
