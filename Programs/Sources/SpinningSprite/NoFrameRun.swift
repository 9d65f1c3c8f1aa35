@_spi(Programs) import Cadence

/// A real run that ended with no frame presented has said nothing about the
/// display: no rate, no glass time. It says why on standard error and exits
/// ``exitCode`` instead of 0, so that a script judging its frames (the vblank
/// lab's lane on an emulated machine, where start-up can take longer than a
/// `--duration`) can tell a run too short to judge from a run that failed.
enum NoFrameRun {
    /// `EX_UNAVAILABLE` of `sysexits.h`: the display gave the run no frame.
    static let exitCode: Int32 = 69

    /// Why the run presented no frame. `startUp`: from the program's start
    /// until the loop began (SDL, the window, the renderer); `elapsed`: until
    /// the run ended; `stopped`: whether a stop signal ended it.
    static func reason(startUp: Nanoseconds, elapsed: Nanoseconds, limit: GameConfig.Limit, stopped: Bool) -> String {
        let took = "start-up (SDL, the window, the renderer) took \(seconds(startUp))"
        if stopped {
            return "no frame presented: stopped by a signal \(seconds(elapsed)) after start, before any frame's "
                + "present had returned (\(took))"
        }
        if case .duration(let limit) = limit, startUp >= limit {
            return "no frame presented: \(took), as long as the run's --duration of \(seconds(limit)); "
                + "give a longer --duration, or --frames N to run for N frames whatever start-up takes"
        }
        return "no frame presented: the run ended \(seconds(elapsed)) after start with no present returned (\(took))"
    }

    private static func seconds(_ ns: Nanoseconds) -> String {
        let value = TimeUnit.seconds(ns)
        return "\((value * 10).rounded() / 10) s"
    }
}
