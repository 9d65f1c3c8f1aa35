import CWaylandPresentation
@_spi(Programs) import Cadence

/// What a Wayland compositor offers to time a window's commits: commit-timing
/// (a commit shown no sooner than a given time) and fifo (each commit shown
/// for a refresh before the next replaces it), bound on a private queue of
/// SDL's display (see `Sources/CWaylandPresentation/timed_commits.c`).
/// Weston 16 and Mutter 50 offer both, KWin 6.7 fifo alone, Debian 12's
/// compositors neither.
final class TimedCommits {
    private let commits: OpaquePointer
    /// Whether the compositor holds a commit until its time (commit-timing
    /// on a clock this process reads).
    let offersTiming: Bool
    /// Whether the compositor keeps every commit for a refresh (fifo).
    let offersFifo: Bool

    /// The objects for `window`'s surface; nil where SDL does not run it on
    /// Wayland, the compositor did not answer, or it offers neither.
    init?(window: Window) {
        var fifo: Int32 = 0, timing: Int32 = 0
        guard let commits = cadence_wl_timed_commits_open(window.handle, &fifo, &timing) else { return nil }
        guard fifo != 0 || timing != 0 else {
            cadence_wl_timed_commits_close(commits)
            return nil
        }
        self.commits = commits
        offersFifo = fifo != 0
        offersTiming = timing != 0
    }

    deinit { cadence_wl_timed_commits_close(commits) }

    /// Whether the compositor can hold each frame to its moment with none
    /// dropped: commit-timing with fifo.
    var holdsToMoments: Bool { offersTiming && offersFifo }

    /// Constrains the next commit (SDL's present, made right after): after
    /// the previous one's refresh, and no sooner than `moment`.
    func next(notBefore moment: Nanoseconds) {
        cadence_wl_timed_commits_next(commits, holdsToMoments ? moment : 0)
    }
}
