@_spi(Programs) import Cadence

/// A frame's work as a fixed amount of computation, about `duration` long on
/// an undisturbed core.
///
/// A busy loop that runs *until a clock time* would end on time even when the
/// thread lost the core in the middle of it, hiding exactly what makes a
/// just-in-time frame late; a fixed amount of computation takes longer when
/// the thread is preempted, as a game's real work does.
struct FixedWork {
    /// Steps of the computation per run.
    let steps: Int
    private let clock: FrameClock

    /// Calibrates the steps to `duration` on `clock`: a trial long enough to
    /// time well, then the fastest of several runs of it, the least disturbed.
    init(lasting duration: Nanoseconds, clock: FrameClock) {
        self.clock = clock
        func time(_ steps: Int) -> Nanoseconds {
            let start = clock.now
            _ = Self.compute(steps: steps, seed: UInt64(start))
            return clock.now - start
        }
        var trialSteps = 1_000
        while time(trialSteps) < 2_000_000 { trialSteps *= 2 }
        let fastest = (0..<5).map { _ in time(trialSteps) }.min()!
        steps = Int(Double(trialSteps) * Double(duration) / Double(fastest))
    }

    /// Runs the computation once; its result keeps the compiler from removing it.
    @discardableResult
    func run() -> UInt64 { Self.compute(steps: steps, seed: UInt64(clock.now)) }

    /// A chain of dependent multiply-adds (a linear congruential generator)
    /// from a seed known only at run time: each step needs the last, so the
    /// work can be neither folded away nor vectorised.
    @inline(never)
    private static func compute(steps: Int, seed: UInt64) -> UInt64 {
        var x = seed
        for _ in 0..<steps { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        return x
    }
}
