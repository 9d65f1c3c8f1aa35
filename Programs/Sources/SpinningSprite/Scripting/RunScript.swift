import Cadence

/// What a run does by itself, from the command line: slider moves
/// (`--fps-schedule`), synthetic input (`--input-script`), render work
/// (`--work-schedule`) and one-off hitches (`--hitch`). The demos and the
/// tests drive the game with it; a game built from the template has none of it.
struct RunScript {
    private let fpsSchedule: [(at: Nanoseconds, value: FPSRequest)]
    private let input: [(at: Nanoseconds, action: GameConfig.InputAction)]
    private let workSchedule: Schedule<Nanoseconds>
    private var hitches: [(at: Nanoseconds, duration: Nanoseconds)]
    private var nextRequest = 0
    private var nextInput = 0

    init(_ config: GameConfig) {
        fpsSchedule = config.fpsSchedule
        input = config.inputScript
        workSchedule = config.workSchedule
        hitches = config.hitches
    }

    /// The slider move due by `now` (the latest, when several are), once.
    mutating func request(dueBy now: Nanoseconds) -> FPSRequest? {
        var due: FPSRequest?
        while nextRequest < fpsSchedule.count, fpsSchedule[nextRequest].at <= now {
            due = fpsSchedule[nextRequest].value
            nextRequest += 1
        }
        return due
    }

    /// The synthetic input due by `now`, in order, once.
    mutating func input(dueBy now: Nanoseconds) -> [GameConfig.InputAction] {
        var due: [GameConfig.InputAction] = []
        while nextInput < input.count, input[nextInput].at <= now {
            due.append(input[nextInput].action)
            nextInput += 1
        }
        return due
    }

    /// The least a simulated uncapped frame costs: 1 ms, the sample's
    /// highest cap (1000 FPS). In virtual time nothing else costs anything,
    /// and a frame with no work would follow the last 1 ns later: a run of
    /// seconds would never end.
    static let uncappedSimulatedFrameCost: Nanoseconds = 1_000_000

    /// The work of a frame starting at `now`: the schedule's, plus any hitch
    /// due (once); an uncapped frame of a simulation costs at least
    /// ``uncappedSimulatedFrameCost``.
    mutating func work(at now: Nanoseconds, uncappedSimulation: Bool = false) -> Nanoseconds {
        var work = workSchedule.value(at: now) ?? 0
        if uncappedSimulation { work = max(work, Self.uncappedSimulatedFrameCost) }
        while let hitch = hitches.first, hitch.at <= now {
            hitches.removeFirst()
            work += hitch.duration
        }
        return work
    }
}
