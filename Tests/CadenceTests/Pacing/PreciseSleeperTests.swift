import Testing
@_spi(Programs) @testable import Cadence

/// A clock whose sleeps overshoot by scripted amounts, and whose spin step
/// moves time by a fixed amount: the machine's sleep error, in virtual time.
private final class OversleepingClock: FrameClock {
    private(set) var now: Nanoseconds = 0
    /// Oversleep of each sleep in turn, repeating from the start when used up.
    var oversleeps: [Nanoseconds]
    /// How far one spin step moves time.
    let spinStep: Nanoseconds
    /// Extra time lost at given spin steps (by count from 1): the thread kept
    /// from the core while it spins.
    var stalls: [Int: Nanoseconds] = [:]
    private(set) var sleepDeadlines: [Nanoseconds] = []
    private(set) var spins = 0

    init(oversleeps: [Nanoseconds], spinStep: Nanoseconds = 2_000) {
        self.oversleeps = oversleeps
        self.spinStep = spinStep
    }

    func sleep(until deadline: Nanoseconds) {
        let oversleep = oversleeps[sleepDeadlines.count % oversleeps.count]
        sleepDeadlines.append(deadline)
        now = max(now, deadline + oversleep)
    }

    func spin() {
        spins += 1
        now += spinStep + (stalls[spins] ?? 0)
    }

    func work(_ span: Nanoseconds) { now += span }

    /// A sleeper on this clock; by default with no budget, so that the learned margin alone decides.
    func sleeper(_ tuning: PreciseSleeper.Tuning = .init(), budget: Double = 1) -> PreciseSleeper {
        PreciseSleeper(clock: self, tuning: tuning, spinBudget: budget, spin: { [unowned self] in spin() })
    }
}

private let µs: Nanoseconds = 1_000

@Suite("Precise sleeper in virtual time")
struct PreciseSleeperTests {
    @Test("Never returns before the deadline, and at most one spin step after it when the margin covers the oversleep")
    func deadlineArithmetic() {
        let clock = OversleepingClock(oversleeps: [30 * µs, 120 * µs, 900 * µs, 2_500 * µs, 0, 60 * µs, 5_000 * µs])
        let sleeper = clock.sleeper()
        let period: Nanoseconds = 6_944_444
        var covered = 0
        for k in 1...300 {
            clock.work(Nanoseconds(k % 3) * 1_000 * µs)
            let deadline = Nanoseconds(k) * period
            let (start, margin, sleepsBefore) = (clock.now, sleeper.margin, clock.sleepDeadlines.count)
            let oversleep = clock.oversleeps[sleepsBefore % clock.oversleeps.count]
            let lateness = sleeper.wait(until: deadline)
            #expect(clock.now >= deadline)
            #expect(lateness == clock.now - deadline)
            if start >= deadline {
                #expect(lateness == start - deadline, "a passed deadline returns at once")
            } else if clock.sleepDeadlines.count > sleepsBefore && oversleep > margin {
                #expect(lateness == oversleep - margin, "the sleep itself ran past the deadline")
            } else {
                covered += 1
                #expect(clock.now < deadline + clock.spinStep, "frame \(k): \(clock.now - deadline) ns late")
            }
        }
        #expect(covered > 200)
    }

    @Test func sleepsUntilTheMarginBeforeTheDeadlineThenSpins() {
        let clock = OversleepingClock(oversleeps: [100 * µs], spinStep: 1 * µs)
        let sleeper = clock.sleeper(.init(initialMargin: 1_000 * µs))
        sleeper.wait(until: 10_000 * µs)
        #expect(clock.sleepDeadlines == [9_000 * µs])
        // Woke at 9.1 ms; 900 µs of 1 µs steps to the deadline.
        #expect(clock.spins == 900)
        #expect(clock.now == 10_000 * µs)
    }

    @Test func aPassedDeadlineReturnsAtOnceWithItsLateness() {
        let clock = OversleepingClock(oversleeps: [0])
        let sleeper = clock.sleeper()
        clock.work(5_000 * µs)
        #expect(sleeper.wait(until: 3_000 * µs) == 2_000 * µs)
        #expect(clock.sleepDeadlines.isEmpty && clock.spins == 0)
    }

    @Test("With the quantile at 1 the margin is the largest recent shortfall plus the safety, and forgets old spikes")
    func marginLearning() {
        let tuning = PreciseSleeper.Tuning(initialMargin: 1_000 * µs, marginBounds: 50 * µs...4_000 * µs,
                                           safety: 100 * µs, memory: 50_000 * µs, shortfallQuantile: 1)
        let clock = OversleepingClock(oversleeps: [200 * µs])
        let sleeper = clock.sleeper(tuning)
        var deadline: Nanoseconds = 0
        func frame() {
            deadline += 10_000 * µs
            sleeper.wait(until: deadline)
        }
        frame()
        #expect(sleeper.margin == 300 * µs)
        clock.oversleeps = [800 * µs]
        frame()
        #expect(sleeper.margin == 900 * µs)
        // The spike woke at 20.5 ms; frames 3 to 7 wake within 50 ms of it, frame 8 after.
        clock.oversleeps = [150 * µs]
        for _ in 3...7 { frame() }
        #expect(sleeper.margin == 900 * µs, "the spike is remembered")
        frame()
        #expect(sleeper.margin == 250 * µs, "the spike is forgotten")
    }

    @Test("With a quantile below 1 the margin covers that share of the remembered shortfalls, not the worst")
    func quantileMargin() {
        let tuning = PreciseSleeper.Tuning(initialMargin: 1_000 * µs, safety: 100 * µs, memory: 10_000_000 * µs,
                                           shortfallQuantile: 0.9)
        // Nine ordinary wake-ups 100 µs late and one 1.5 ms late, repeating.
        let clock = OversleepingClock(oversleeps: Array(repeating: 100 * µs, count: 9) + [1_500 * µs])
        let sleeper = clock.sleeper(tuning)
        for k in 1...40 { sleeper.wait(until: Nanoseconds(k) * 10_000 * µs) }
        // The 90th percentile of forty shortfalls (four of them 1.5 ms) is an ordinary one.
        #expect(sleeper.margin == 200 * µs)
        let largest = OversleepingClock(oversleeps: clock.oversleeps)
        let worstCase = largest.sleeper(.init(initialMargin: 1_000 * µs, safety: 100 * µs, memory: 10_000_000 * µs,
                                              shortfallQuantile: 1))
        for k in 1...40 { worstCase.wait(until: Nanoseconds(k) * 10_000 * µs) }
        #expect(worstCase.margin == 1_600 * µs)
    }

    @Test("By default the margin covers the 95th percentile of the shortfalls plus 20 µs")
    func defaultQuantile() {
        // Nineteen wake-ups 30 µs late and one 1 ms late, repeating: of forty, the
        // nearest rank of 0.95 is the 38th smallest, an ordinary one.
        let clock = OversleepingClock(oversleeps: Array(repeating: 30 * µs, count: 19) + [1_000 * µs])
        let sleeper = clock.sleeper()
        for k in 1...40 { sleeper.wait(until: Nanoseconds(k) * 10_000 * µs) }
        #expect(sleeper.margin == 50 * µs)
    }

    @Test("The budget caps each spin at its share of the time since the previous deadline")
    func budgetCapsTheSpin() {
        let clock = OversleepingClock(oversleeps: [0], spinStep: 1 * µs)
        let sleeper = clock.sleeper(.init(initialMargin: 2_000 * µs, marginBounds: 0...2_000 * µs, safety: 2_000 * µs),
                                    budget: 0.03)
        let period: Nanoseconds = 6_944_444   // 144 Hz
        for k in 1...3 { sleeper.wait(until: Nanoseconds(k) * period) }
        // 3% of 6 944 444 ns, rounded down: 208 333 ns before each deadline, the first measured from 0.
        #expect(clock.sleepDeadlines == (1...3).map { Nanoseconds($0) * period - 208_333 })
        #expect(sleeper.spunTime == 3 * 208_333)
        #expect(clock.now >= 3 * period && clock.now < 3 * period + clock.spinStep)
    }

    @Test("The two waits of a frame share its budget: their spins add up to the budget's share of the interval")
    func twoWaitsShareTheBudget() {
        let clock = OversleepingClock(oversleeps: [0], spinStep: 1 * µs)
        let sleeper = clock.sleeper(.init(initialMargin: 2_000 * µs, marginBounds: 0...2_000 * µs, safety: 2_000 * µs),
                                    budget: 0.1)
        sleeper.wait(until: 10_000 * µs)
        let spunBefore = sleeper.spunTime
        // A just-in-time start 4 ms before the next target, then the target itself.
        sleeper.wait(until: 16_000 * µs)
        sleeper.wait(until: 20_000 * µs)
        #expect(sleeper.spunTime - spunBefore == 600 * µs + 400 * µs)
    }

    @Test("A budget of 0 never spins: one absolute sleep to the deadline")
    func zeroBudgetOnlySleeps() {
        let clock = OversleepingClock(oversleeps: [40 * µs], spinStep: 1 * µs)
        let sleeper = clock.sleeper(budget: 0)
        #expect(sleeper.wait(until: 10_000 * µs) == 40 * µs)
        #expect(clock.sleepDeadlines == [10_000 * µs] && clock.spins == 0 && sleeper.spunTime == 0)
    }

    @Test("Whatever the wake-ups do, the spin takes at most the budget's share of the time")
    func spinStaysWithinBudget() {
        // Wake-ups from on time to 3 ms late: the learned margin wants far more than 3% of a 144 Hz frame.
        let clock = OversleepingClock(oversleeps: [0, 30 * µs, 3_000 * µs, 200 * µs, 900 * µs, 10 * µs], spinStep: 1 * µs)
        let sleeper = clock.sleeper(budget: 0.03)
        let period: Nanoseconds = 6_944_444
        for k in 1...1_000 {
            clock.work(1_000 * µs)
            let deadline = Nanoseconds(k) * period
            #expect(sleeper.wait(until: deadline) >= 0 && clock.now >= deadline)
        }
        #expect(Double(sleeper.spunTime) <= 0.03 * Double(1_000 * period))
        #expect(sleeper.margin > 208_333, "the margin learned more than the budget allows")
    }

    @Test("Time the spin loses past the deadline counts too: the margin then covers it")
    func spinLossWidensTheMargin() {
        let clock = OversleepingClock(oversleeps: [100 * µs], spinStep: 1 * µs)
        // Woken at 9.6 ms; 100 steps later the thread loses 500 µs and returns at 10.2 ms.
        clock.stalls = [100: 500 * µs]
        let sleeper = clock.sleeper(.init(initialMargin: 500 * µs, safety: 100 * µs))
        #expect(sleeper.wait(until: 10_000 * µs) == 200 * µs)
        // Shortfall: 100 µs oversleep + 200 µs lost past the deadline; plus the safety.
        #expect(sleeper.margin == 400 * µs)
    }

    @Test func theMarginStaysWithinItsBounds() {
        let tuning = PreciseSleeper.Tuning(initialMargin: 1_000 * µs, marginBounds: 50 * µs...4_000 * µs,
                                           safety: 0, memory: 30_000 * µs)
        let clock = OversleepingClock(oversleeps: [10_000 * µs])
        let sleeper = clock.sleeper(tuning)
        sleeper.wait(until: 20_000 * µs)
        #expect(sleeper.margin == 4_000 * µs)
        clock.oversleeps = [0]
        for k in 1...4 { sleeper.wait(until: 20_000 * µs + Nanoseconds(k) * 20_000 * µs) }
        #expect(sleeper.margin == 50 * µs)
    }

    @Test("A late frame does not move later deadlines: errors do not accumulate")
    func errorsDoNotAccumulate() {
        // The 10th sleep overshoots by 3 ms, past its deadline.
        var script = Array(repeating: 80 * µs, count: 200)
        script[9] = 3_000 * µs
        let clock = OversleepingClock(oversleeps: script, spinStep: 1 * µs)
        let sleeper = clock.sleeper(.init(initialMargin: 500 * µs, memory: 100_000 * µs))
        let period: Nanoseconds = 16_666_667
        var returns: [Nanoseconds] = []
        for k in 1...100 {
            clock.work(4_000 * µs)
            sleeper.wait(until: Nanoseconds(k) * period)
            returns.append(clock.now)
        }
        #expect(returns[9] > 10 * period + 2_000 * µs)
        for k in 1...100 where k != 10 {
            #expect(returns[k - 1] - Nanoseconds(k) * period < 1 * µs, "frame \(k)")
        }
    }
}
