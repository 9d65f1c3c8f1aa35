#if canImport(Glibc)
import Glibc
#endif
import Cadence
import Synchronization

/// A bound on SDL's teardown, which waits on the display and sound servers:
/// SDL 3 on a Wayland connection it has given up on ("Wayland display
/// connection closed by server", said while the connection still held) can
/// stay in its teardown for as long as it is let, after the game has
/// finished and written everything. A thread of its own ends the process
/// when the teardown has not returned within ``limit``, saying so on
/// standard error with exit status 1.
enum TeardownBound {
    /// Far more than a teardown takes (milliseconds here, seconds on an
    /// emulated machine under load), and less than a player waits before
    /// killing a game that will not close.
    static let limit: Nanoseconds = 20_000_000_000

    /// Runs `teardown` under the bound.
    static func run(_ teardown: () -> Void) {
        let done = Done()
        var thread = pthread_t()
        let context = Unmanaged.passRetained(done).toOpaque()
        if pthread_create(&thread, nil, { context in
            let done = Unmanaged<Done>.fromOpaque(context!).takeRetainedValue()
            var left = TeardownBound.limit
            while left > 0, !done.flag.load(ordering: .acquiring) {
                usleep(50_000)
                left -= 50_000_000
            }
            guard !done.flag.load(ordering: .acquiring) else { return nil }
            ProgramExit.now(saying: "SDL's teardown did not return within \(TeardownBound.limit / 1_000_000_000) s "
                            + "(the display or sound server did not answer): the game ended")
        }, context) == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Done>.fromOpaque(context).release()
        }
        teardown()
        done.flag.store(true, ordering: .releasing)
    }

    /// Whether the teardown returned, shared with the bounding thread.
    private final class Done: Sendable {
        let flag = Atomic<Bool>(false)
    }
}
