@_spi(Programs) @testable import Cadence

/// Plays a ``SweepScenario`` through the real frame loop and simulated display.
final class SweepGame: FrameLoopClient {
    let scenario: SweepScenario
    private(set) var records: [FrameRecord] = []
    /// When the loop planned each frame (the link's `now`): the callback's
    /// start in smooth mode, before the wait in low latency mode.
    private(set) var plannedAt: [Nanoseconds] = []
    private var lastPrepared: Nanoseconds = 0
    private var nextRequest = 0
    private var nextHitch = 0
    /// Uncapped frames cost at least this: with vsync off nothing else moves
    /// time, and a real frame is never free.
    private static let uncappedFloor: Nanoseconds = 250_000
    private var uncapped = false

    init(_ scenario: SweepScenario) { self.scenario = scenario }

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        let now = loop.clock.now
        lastPrepared = now
        guard now < scenario.duration else { return false }
        while nextRequest < scenario.requests.count, scenario.requests[nextRequest].at <= now {
            loop.rateLimit = scenario.requests[nextRequest].request.limit
            uncapped = loop.rateLimit == .uncapped
            nextRequest += 1
        }
        return true
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        plannedAt.append(lastPrepared)
        let now = loop.clock.now
        var work = scenario.work.last { $0.at <= now }?.duration ?? 0
        while nextHitch < scenario.hitches.count, scenario.hitches[nextHitch].at <= now {
            work += scenario.hitches[nextHitch].duration
            nextHitch += 1
        }
        loop.doWork(uncapped ? max(work, Self.uncappedFloor) : work)
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) { records.append(record) }

    func idle(_ loop: FrameLoop) -> Bool { false }

    /// Runs `scenario` and returns what the oracle finds wrong, frames and VRR flips.
    static func violations(of scenario: SweepScenario) -> [Oracle.Violation] {
        let display = SimulatedDisplay(panel: scenario.panel.simulated, vsync: scenario.vsync,
                                       fullscreen: scenario.fullscreen, allowsVariableRefresh: scenario.vrrAllowed,
                                       changes: scenario.displayChanges.map { ($0.at, $0.panel.simulated) })
        let backend = FlipRecordingBackend(display)
        let game = SweepGame(scenario)
        let loop = FrameLoop(link: DisplayLink(preferred: scenario.requests[0].request.frameRateRange), backend: backend)
        loop.latency = scenario.latency
        loop.run(game)
        // The rules are about how the link planned each frame, so the oracle
        // takes the planning time as the callback's (the same in smooth mode).
        let frames = zip(game.records, game.plannedAt).map { r, planned in
            Oracle.Frame(index: r.frame, callbackStart: planned, workEnd: r.workEnd,
                         presentSubmit: r.presentSubmit, target: r.targetTimestamp, delta: r.delta,
                         glass: r.presentTime, timestamp: r.timestamp, effectiveHz: r.pacedHz,
                         skippedFrames: r.skippedFrames, workStart: r.callbackStart)
        }
        var found = Oracle.checkInvariants(scenario.oracle, frames) + Oracle.checkSteadyGlass(scenario.oracle, frames)
            + Oracle.checkWorkSteps(scenario.oracle, frames)
        // Uncapped turns vsync off: the panel's range holds only while nothing is uncapped.
        let everUncapped = scenario.requests.contains { if case .uncapped = $0.request { true } else { false } }
        if scenario.displayChanges.isEmpty, scenario.vsync, scenario.fullscreen, scenario.vrrAllowed, !everUncapped,
           case .variable(let low, let high) = scenario.panel {
            found += Oracle.checkVRRFlips(min: low.exact, max: high.exact, glass: game.records.map(\.presentTime),
                                          flips: backend.flips.map(\.at))
        }
        return found
    }
}
