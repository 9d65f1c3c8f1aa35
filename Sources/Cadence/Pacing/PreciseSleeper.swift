/// Waits for an absolute deadline about as precisely as a busy-wait, at a
/// stated cost: at most ``spinBudget`` of a core goes to spinning.
///
/// A plain sleep ends late by a varying amount; a busy-wait is exact but
/// burns a whole core. The sleeper sleeps on the clock (an absolute
/// `clock_nanosleep` with the timer slack at its minimum, in real time) until
/// ``margin`` before the deadline, then spins for the rest, re-reading the
/// clock. In real time the spin step between reads should be the CPU's
/// spin-wait hint (`SpinWait.pause` in CadenceSDL), which keeps the core; not
/// `sched_yield`, which on a loaded machine hands the core to a competing
/// thread for its whole time slice.
///
/// The margin is learned. After every sleep its *shortfall* is remembered for
/// ``Tuning/memory``: the oversleep (how long after the wake-up time the sleep
/// really ended) plus any time the spin lost past the deadline (the thread
/// kept from the core right after waking). The margin becomes a quantile of
/// the remembered shortfalls (``Tuning/shortfallQuantile``, by default the
/// 95th percentile) plus ``Tuning/safety``: the rare wake-up later than that
/// ends that much late, instead of every wait spinning for the worst one
/// (measured with `Scripts/bench cost`: a margin covering the worst shortfall
/// of the last 2 s spun most of its time for nothing). A wait only notes its
/// shortfall; the margin is derived from them when next asked for, which is
/// before the next sleep: between a deadline and what the caller does at it
/// (a present) there is nothing but the clock's read. Derived right after
/// the spin, sorting 2 s of shortfalls held each present of a debug build
/// 0.1 to 0.45 ms past its deadline.
///
/// The spin is also held to a budget: a wait may spin at most ``spinBudget``
/// of the time since the previous deadline (the frame interval, for one wait
/// a frame; the two waits of a low-latency frame share it), so the pacing
/// never takes more than that share of a core, whatever the machine's
/// wake-ups do (``spunTime`` is what they spun).
///
/// Deadlines are absolute: a wait that ends late never moves the next
/// deadline, so errors cannot accumulate from frame to frame.
@_spi(Programs) public final class PreciseSleeper {
    /// How the margin is learned.
    public struct Tuning: Equatable, Sendable {
        /// The margin before anything has been observed.
        public var initialMargin: Nanoseconds
        /// The narrowest and widest margins learning may choose; the budget may
        /// still cut a wait's spin shorter.
        public var marginBounds: ClosedRange<Nanoseconds>
        /// Added to the quantile of the remembered shortfalls: the cost of the
        /// wake-up itself and of reading the clock.
        public var safety: Nanoseconds
        /// How long a shortfall is remembered.
        public var memory: Nanoseconds
        /// Which of the remembered shortfalls the margin covers (0…1, nearest
        /// rank): 1 covers the largest, so one wake-up 3 ms late makes every
        /// wait spin 3 ms for the whole memory; 0.95 lets the worst twentieth
        /// end late instead, for much less spinning.
        public var shortfallQuantile: Double

        /// A tuning. The defaults were measured with `Scripts/bench cost` on a
        /// 2-core Linux machine with the timer slack at 1 ns, sharing its cores
        /// with other work: an absolute sleep there wakes 20–50 µs late.
        public init(initialMargin: Nanoseconds = 200_000,
                    marginBounds: ClosedRange<Nanoseconds> = 20_000...2_000_000,
                    safety: Nanoseconds = 20_000, memory: Nanoseconds = 2_000_000_000,
                    shortfallQuantile: Double = 0.95) {
            precondition(marginBounds.lowerBound >= 0 && safety >= 0 && memory > 0 && (0...1).contains(shortfallQuantile),
                         "a tuning needs sane bounds")
            self.shortfallQuantile = shortfallQuantile
            self.initialMargin = initialMargin
            self.marginBounds = marginBounds
            self.safety = safety
            self.memory = memory
        }
    }

    /// The share of a core spinning may take by default: 3%, at 144 Hz a
    /// spin of at most 208 µs a frame, enough for the wake-ups of a machine
    /// under ordinary load.
    public static let defaultSpinBudget = 0.03

    /// The most shortfalls remembered, however many the memory spans (at a
    /// high rate): sorting them after every wait stays a few microseconds.
    public static let rememberedShortfalls = 512

    /// The clock slept on and read.
    public let clock: FrameClock
    /// How the margin is learned.
    public let tuning: Tuning
    /// How long before a deadline the sleep ends and the spin begins, as
    /// learned, before the budget (see ``spinAllowance(before:)``).
    public var margin: Nanoseconds {
        if marginIsStale { deriveMargin() }
        return derivedMargin
    }
    private var derivedMargin: Nanoseconds
    /// Whether shortfalls were noted since ``margin`` was last derived.
    private var marginIsStale = false
    /// The most of a core spinning may take (0…1): each wait spins at most
    /// this share of the time since the previous deadline. 0 never spins (a
    /// plain absolute sleep); 1 lets the learned margin alone decide.
    public var spinBudget: Double {
        didSet { spinBudget = min(max(spinBudget, 0), 1) }
    }
    /// The time all waits spent spinning, on ``clock``: what the budget bounds.
    public private(set) var spunTime: Nanoseconds = 0

    /// Remembered shortfalls and when they were observed, oldest first.
    private var shortfalls: [(at: Nanoseconds, span: Nanoseconds)] = []
    private var previousDeadline: Nanoseconds?
    private let spin: () -> Void

    /// A sleeper on `clock`.
    ///
    /// - Parameters:
    ///   - clock: the clock deadlines are on.
    ///   - tuning: how the margin is learned; the defaults suit real time.
    ///   - spinBudget: the most of a core spinning may take (``spinBudget``).
    ///   - spin: runs between reads of the clock in the final stretch:
    ///     nothing by default, the CPU's pause hint in real time, a step that
    ///     moves a virtual clock in tests.
    public init(clock: FrameClock, tuning: Tuning = Tuning(), spinBudget: Double = defaultSpinBudget,
                spin: @escaping () -> Void = {}) {
        self.clock = clock
        self.tuning = tuning
        self.spinBudget = min(max(spinBudget, 0), 1)
        self.spin = spin
        derivedMargin = min(max(tuning.initialMargin, tuning.marginBounds.lowerBound), tuning.marginBounds.upperBound)
    }

    /// How long the wait for `deadline` may spin: the learned margin, held
    /// to ``spinBudget`` of the time since the previous deadline (of the
    /// time from now, for a first wait).
    public func spinAllowance(before deadline: Nanoseconds) -> Nanoseconds {
        let since = max(0, deadline - (previousDeadline ?? clock.now))
        return min(margin, Nanoseconds((Double(since) * spinBudget).rounded(.down)))
    }

    /// Returns once the clock reads `deadline` or later, as soon after it as
    /// the machine allows; never before. Returns the lateness (0 or more).
    @discardableResult
    public func wait(until deadline: Nanoseconds) -> Nanoseconds {
        let wakeAt = deadline - spinAllowance(before: deadline)
        previousDeadline = max(deadline, previousDeadline ?? deadline)
        let slept = clock.now < wakeAt
        if slept { clock.sleep(until: wakeAt) }
        let woke = clock.now
        var now = woke
        while now < deadline {
            spin()
            now = clock.now
        }
        spunTime += max(0, min(now, deadline) - woke)
        if slept {
            // The wake-up's cost: the oversleep, plus however long the spin
            // was kept from the core past the deadline (a timer tick, an
            // interrupt, another thread), which a wider margin also absorbs.
            shortfalls.append((now, max(0, woke - wakeAt + now - max(woke, deadline))))
            marginIsStale = true
        }
        return now - deadline
    }

    /// Forgets the shortfalls older than the memory (before the newest) and
    /// derives the margin from the rest.
    private func deriveMargin() {
        marginIsStale = false
        guard let time = shortfalls.last?.at else { return }
        let expired = shortfalls.prefix { $0.at < time - tuning.memory }.count
        let forgotten = max(expired, shortfalls.count - Self.rememberedShortfalls)
        shortfalls.removeFirst(forgotten)
        let covered = shortfalls.map(\.span).sorted().nearestRank(tuning.shortfallQuantile)!
        derivedMargin = min(max(covered + tuning.safety, tuning.marginBounds.lowerBound), tuning.marginBounds.upperBound)
    }
}
