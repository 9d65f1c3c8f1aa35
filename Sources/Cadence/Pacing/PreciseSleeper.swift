/// Waits for an absolute deadline as precisely as a busy-wait and nearly as
/// cheaply as a sleep.
///
/// A plain sleep ends late by a varying amount (on a 2-core Linux machine a
/// 1 ms `nanosleep` oversleeps by about 0.1 ms at the median and up to about
/// 1 ms); a busy-wait is exact but burns a whole core. The sleeper does both:
/// it sleeps on the clock until ``margin`` before the deadline, then spins for
/// the rest, re-reading the clock. In real time the spin step between reads
/// should be the CPU's spin-wait hint (`SpinWait.pause` in CadenceSDL), which
/// keeps the core. It should not be `sched_yield`: on a loaded machine
/// (measured on 2 cores with both busy, Linux's EEVDF scheduler) a yield hands
/// the core to the competing thread for its whole time slice, and the median
/// wait ended 2.8 ms late instead of on time.
///
/// The margin is learned. After every sleep its *shortfall* is remembered for
/// ``Tuning/memory``: the oversleep (how long after the wake-up time the sleep
/// really ended) plus any time the spin lost past the deadline (the thread
/// kept from the core right after waking). The margin becomes the remembered
/// shortfalls' ``Tuning/shortfallQuantile`` (the largest, by default) plus
/// ``Tuning/safety``, within ``Tuning/marginBounds`` and under the
/// ``marginCeiling`` a game may tie to its frame interval.
/// So the spin lasts just long enough to absorb the machine's own wake-up
/// error: short on a quiet machine, longer on a busy one. Bad wake-ups come in
/// bursts (another process takes the core for a while), so one raises the
/// margin for the frames after it, and the margin shrinks again once the burst
/// is forgotten. Memory is kept in time rather than in frames, so it means the
/// same at any rate.
///
/// Deadlines are absolute: a wait that ends late never moves the next
/// deadline, so errors cannot accumulate from frame to frame.
public final class PreciseSleeper {
    /// How the margin is learned.
    public struct Tuning: Equatable, Sendable {
        /// The margin before anything has been observed.
        public var initialMargin: Nanoseconds
        /// The narrowest and widest margins learning may choose. The floor keeps
        /// a spin long enough to cover the clock read and the wake-up itself;
        /// the ceiling bounds the CPU a pathological burst of oversleeps can cost.
        public var marginBounds: ClosedRange<Nanoseconds>
        /// Added to the largest remembered shortfall: the next wake-up may be a
        /// little worse than any of them.
        public var safety: Nanoseconds
        /// How long an oversleep is remembered.
        public var memory: Nanoseconds
        /// Which of the remembered shortfalls the margin covers (0…1, nearest
        /// rank): 1 covers the largest, so one wake-up 3 ms late makes every
        /// wait spin 3 ms for the whole memory; 0.9 lets the worst tenth end
        /// late instead, for much less spinning on a noisy machine.
        public var shortfallQuantile: Double

        /// A tuning. The defaults were measured with `Scripts/bench` on a
        /// 2-core Linux machine with the timer slack lowered (see `TimerSlack`
        /// in CadenceSDL), sharing its cores with other work.
        public init(initialMargin: Nanoseconds = 1_000_000,
                    marginBounds: ClosedRange<Nanoseconds> = 50_000...2_000_000,
                    safety: Nanoseconds = 400_000, memory: Nanoseconds = 2_000_000_000,
                    shortfallQuantile: Double = 1) {
            precondition(marginBounds.lowerBound >= 0 && safety >= 0 && memory > 0 && (0...1).contains(shortfallQuantile),
                         "a tuning needs sane bounds")
            self.shortfallQuantile = shortfallQuantile
            self.initialMargin = initialMargin
            self.marginBounds = marginBounds
            self.safety = safety
            self.memory = memory
        }
    }

    /// The clock slept on and read.
    public let clock: FrameClock
    /// How the margin is learned.
    public let tuning: Tuning
    /// How long before a deadline the sleep ends and the spin begins, as learned.
    public private(set) var margin: Nanoseconds
    /// The most a wait may spin, whatever was learned; nil for no limit but
    /// the tuning's bounds. A budget tied to the frame interval (see
    /// ``setBudget(fraction:ofInterval:)``) caps the pacing's CPU share on a
    /// machine whose wake-ups are often late, at the price of those waits
    /// ending late by the rest.
    public var marginCeiling: Nanoseconds?

    /// Remembered shortfalls and when they were observed, oldest first.
    private var shortfalls: [(at: Nanoseconds, span: Nanoseconds)] = []
    private let spin: () -> Void

    /// A sleeper on `clock`.
    ///
    /// - Parameters:
    ///   - clock: the clock deadlines are on.
    ///   - tuning: the margins and spin bounds; the defaults suit real time.
    ///   - spin: runs between reads of the clock in the final stretch:
    ///     nothing by default, the CPU's pause hint in real time, a step that
    ///     moves a virtual clock in tests.
    public init(clock: FrameClock, tuning: Tuning = Tuning(), spin: @escaping () -> Void = {}) {
        self.clock = clock
        self.tuning = tuning
        self.spin = spin
        margin = tuning.initialMargin.clamped(to: tuning.marginBounds)
    }

    /// Returns once the clock reads `deadline` or later, as soon after it as
    /// the machine allows; never before. Returns the lateness (0 or more).
    @discardableResult
    public func wait(until deadline: Nanoseconds) -> Nanoseconds {
        let wakeAt = deadline - min(margin, marginCeiling ?? margin)
        let slept = clock.now < wakeAt
        if slept { clock.sleep(until: wakeAt) }
        let woke = clock.now
        var now = woke
        while now < deadline {
            spin()
            now = clock.now
        }
        if slept {
            // The wake-up's cost: the oversleep, plus however long the spin
            // was kept from the core past the deadline (a timer tick, an
            // interrupt, another thread), which a wider margin also absorbs.
            learn(shortfall: woke - wakeAt + now - max(woke, deadline), at: now)
        }
        return now - deadline
    }

    /// Caps the spin of every wait at `fraction` of `interval` (the frame
    /// interval in effect): at most that share of a core goes to spinning.
    public func setBudget(fraction: Double, ofInterval interval: Nanoseconds) {
        marginCeiling = Nanoseconds((Double(interval) * fraction).rounded())
    }

    /// Remembers `shortfall`, forgets those older than the memory, and
    /// re-derives the margin from the rest.
    private func learn(shortfall: Nanoseconds, at time: Nanoseconds) {
        shortfalls.append((time, max(0, shortfall)))
        let forgotten = shortfalls.prefix { $0.at < time - tuning.memory }.count
        shortfalls.removeFirst(forgotten)
        let covered = tuning.shortfallQuantile >= 1 ? shortfalls.lazy.map(\.span).max()!
            : shortfalls.map(\.span).sorted().nearestRank(tuning.shortfallQuantile)!
        margin = (covered + tuning.safety).clamped(to: tuning.marginBounds)
    }
}

extension Nanoseconds {
    /// The value moved into `range`.
    fileprivate func clamped(to range: ClosedRange<Nanoseconds>) -> Nanoseconds {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
