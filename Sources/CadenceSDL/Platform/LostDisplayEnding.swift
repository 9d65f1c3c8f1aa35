#if canImport(Glibc)
import Glibc
#endif
import Cadence

/// How a game made with ``GameWindow/init(title:width:height:fullscreen:vsync:rateLimit:video:)``
/// ends when its display is lost: SDL cannot go on without it (SDL 2.26
/// spins for ever inside a window's start-up or a present on a dead Wayland
/// connection, and its teardown talks to the server that is gone), so the
/// process ends, from the `PresentWatchdog`'s thread or the game's own:
/// the statistics' summary on standard output once the window exists, what was
/// lost on standard error, exit status 1.
final class LostDisplayEnding: @unchecked Sendable {
    /// The game's window once made; written once on the game's thread, read
    /// by the ending while that thread is parked (see `PresentWatchdog`).
    var window: GameWindow?

    /// A watchdog whose ending is this one.
    func watchdog() -> PresentWatchdog {
        PresentWatchdog(stopRequested: { false }) { [self] reason in
            let what = switch reason {
            case .displayLost(let lost): lost
            case .presentStalled: "the display stopped answering"
            case .startUpStalled: "SDL's start-up waited \(PresentWatchdog.startUpLimit / 1_000_000_000) s for the display"
            case .stopRequested: "stopped"
            }
            if let window { print(window.statistics.runSummary) }
            let when = window == nil ? " during start-up" : ""
            ProgramExit.now(saying: "\(what): the game ended\(when)")
        }
    }
}
