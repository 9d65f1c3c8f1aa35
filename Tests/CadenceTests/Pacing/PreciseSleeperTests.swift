import Testing
@testable import Cadence

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

    func sleeper(_ tuning: PreciseSleeper.Tuning = .init()) -> PreciseSleeper {
        PreciseSleeper(clock: self, tuning: tuning, spin: { [unowned self] in spin() })
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

    @Test("The margin is the largest recent shortfall plus the safety, and forgets old spikes")
    func marginLearning() {
        let tuning = PreciseSleeper.Tuning(initialMargin: 1_000 * µs, marginBounds: 50 * µs...4_000 * µs,
                                           safety: 100 * µs, memory: 50_000 * µs)
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
        let worstCase = largest.sleeper(.init(initialMargin: 1_000 * µs, safety: 100 * µs, memory: 10_000_000 * µs))
        for k in 1...40 { worstCase.wait(until: Nanoseconds(k) * 10_000 * µs) }
        #expect(worstCase.margin == 1_600 * µs)
    }

    @Test("A budget tied to the frame interval caps the spin: the sleep ends no earlier than the ceiling before the deadline")
    func budgetCapsTheSpin() {
        let clock = OversleepingClock(oversleeps: [0], spinStep: 1 * µs)
        let sleeper = clock.sleeper(.init(initialMargin: 2_000 * µs))
        sleeper.setBudget(fraction: 0.1, ofInterval: 6_944_444)
        #expect(sleeper.marginCeiling == 694_444)
        sleeper.wait(until: 10_000 * µs)
        #expect(clock.sleepDeadlines == [10_000 * µs - 694_444])
        #expect(clock.now >= 10_000 * µs && clock.now < 10_000 * µs + clock.spinStep)
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
