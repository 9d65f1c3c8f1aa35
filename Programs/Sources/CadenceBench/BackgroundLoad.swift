import Foundation
import Synchronization

/// Threads that keep cores busy while the pacing runs: a game's worker
/// threads, a compiler, a browser. A limiter that only works on an idle
/// machine is not much use.
final class BackgroundLoad: Sendable {
    private let running = Atomic<Bool>(true)

    /// Starts `threads` threads that spin until ``stop()``.
    init(threads: Int) {
        for _ in 0..<threads {
            Thread.detachNewThread { [self] in
                var sink = 0
                while running.load(ordering: .relaxed) { sink &+= 1 }
                _ = sink
            }
        }
    }

    /// Lets the threads finish.
    func stop() {
        running.store(false, ordering: .relaxed)
    }
}
