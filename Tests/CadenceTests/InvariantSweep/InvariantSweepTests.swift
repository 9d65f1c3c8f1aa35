import Foundation
import Testing
@testable import Cadence

/// Thousands of seeded scenarios through the real loop and simulated display,
/// every frame checked against the independent ``Oracle``.
///
/// Replay one failure with its seed:
/// `CADENCE_SWEEP_SEED=<seed> CADENCE_SWEEP_COUNT=1 swift test --filter InvariantSweep`.
/// A fresh set: any other `CADENCE_SWEEP_SEED`; `CADENCE_SWEEP_SHOW=<n>` lists
/// the first n failing scenarios instead of five. Each failure ever found is
/// kept below as a named regression.
@MainActor
@Suite("Invariant sweep")
struct InvariantSweepTests {
    static let firstSeed = UInt64(ProcessInfo.processInfo.environment["CADENCE_SWEEP_SEED"] ?? "") ?? 0xCAD3_0000
    static let count = Int(ProcessInfo.processInfo.environment["CADENCE_SWEEP_COUNT"] ?? "") ?? 3_000

    @Test("Seeded random scenarios: every rule holds on every frame")
    func sweep() {
        var failures: [(SweepScenario, [Oracle.Violation])] = []
        for i in 0..<UInt64(Self.count) {
            let scenario = SweepScenario.random(seed: Self.firstSeed &+ i)
            let found = SweepGame.violations(of: scenario)
            if !found.isEmpty { failures.append((scenario, found)) }
        }
        let report = failures.prefix(ProcessInfo.processInfo.environment["CADENCE_SWEEP_SHOW"].flatMap { Int($0) } ?? 5).map { scenario, found in
            "\(scenario)\n  " + found.prefix(4).map(\.description).joined(separator: "\n  ")
        }
        #expect(failures.isEmpty, """
            \(failures.count) of \(Self.count) scenarios broke a rule (seeds \(failures.prefix(20).map(\.0.seed))):
            \(report.joined(separator: "\n"))
            """)
    }

    @Test("Regressions, each once found broken", arguments: SweepScenario.regressions.map(\.name))
    func regression(_ name: String) {
        let scenario = SweepScenario.regressions.first { $0.name == name }!.scenario
        let found = SweepGame.violations(of: scenario)
        #expect(found.isEmpty, "\(scenario)\n\(found.prefix(6).map(\.description).joined(separator: "\n"))")
    }
}

extension SweepScenario {
    private static let ms: Nanoseconds = 1_000_000

    /// Scenarios that once broke a rule, by what they showed.
    static let regressions: [(name: String, scenario: SweepScenario)] = [
        ("A VRR panel asked for its own rate runs at its maximum (48-60)",
         SweepScenario(panel: .variable(Ratio(48), Ratio(60)))),
        ("A VRR panel asked for its own rate runs at its maximum (20-60)",
         SweepScenario(panel: .variable(Ratio(20), Ratio(60)))),
        ("A VRR panel asked for its own rate runs at its maximum (48-240)",
         SweepScenario(panel: .variable(Ratio(48), Ratio(240)))),
        ("Fixed 60 Hz becoming VRR mid-frame shows no frame before its target",
         SweepScenario(panel: .fixed(Ratio(60)), displayChanges: [(1_001 * ms, .variable(Ratio(48), Ratio(144)))],
                       duration: 3_000 * ms)),
        ("Switching to an unknown rate and between fixed rates shows no frame early",
         SweepScenario(panel: .fixed(Ratio(144)),
                       displayChanges: [(503 * ms, .unknown), (1_007 * ms, .fixed(Ratio(60))),
                                        (1_509 * ms, .fixed(Ratio(60000, 1001)))])),
        ("A cap of 30 on VRR 40-60 repeats each frame once, none late",
         SweepScenario(panel: .variable(Ratio(40), Ratio(60)), requests: [(0, .cap(Ratio(30)))])),
        ("A cap of 45 on VRR 50-60, where neither 45 nor 90 fits, runs at 30",
         SweepScenario(panel: .variable(Ratio(50), Ratio(60)), requests: [(0, .cap(Ratio(45)))])),
        ("Work longer than the cap's interval on VRR (15 ms under a cap of 78 on 48-144): one speed, frames on target",
         SweepScenario(panel: .variable(Ratio(48), Ratio(144)), requests: [(0, .cap(Ratio(78)))],
                       work: [(0, 15 * ms)])),
        ("Work longer than the cap's interval on a fixed display (25 ms under a cap of 48 on 144 Hz, low latency)",
         SweepScenario(panel: .fixed(Ratio(144)), requests: [(0, .cap(Ratio(48)))], work: [(0, 25 * ms)],
                       latency: .low)),
        ("Work drifting past the cap's interval and back on VRR (12 → 15 → 17 → 9 ms under 78 on 48-144)",
         SweepScenario(panel: .variable(Ratio(48), Ratio(144)), requests: [(0, .cap(Ratio(78)))],
                       work: [(0, 12 * ms), (400 * ms, 15 * ms), (1_200 * ms, 17 * ms), (2_000 * ms, 9 * ms)],
                       duration: 4_000 * ms)),
        ("Work holding the rate down across a display change: the rate is chosen again on the new display (35 ms, cap 40, 59.94 then 90 Hz)",
         SweepScenario(panel: .fixed(Ratio(2997, 50)), fullscreen: false, displayChanges: [(261_552_059, .fixed(Ratio(90)))],
                       requests: [(0, .cap(Ratio(40)))], work: [(0, 35 * ms)], duration: 1_300 * ms, latency: .low)),
        ("A rate change after missed frames starts from the glass, no gap",
         SweepScenario(panel: .fixed(Ratio(60)), requests: [(0, .cap(Ratio(60))), (1_000 * ms, .cap(Ratio(30)))],
                       work: [(0, 20 * ms)])),
        ("True NTSC (60000/1001 Hz) stays on its vblanks for ten minutes",
         SweepScenario(panel: .fixed(Ratio(60000, 1001)), duration: 600_000 * ms)),
        ("A cap of 1 on 59.94 Hz is every 60th vblank",
         SweepScenario(panel: .fixed(Ratio(2997, 50)), requests: [(0, .cap(Ratio(1)))], duration: 5_000 * ms)),
        ("A VRR range with equal ends",
         SweepScenario(panel: .variable(Ratio(144), Ratio(144)), requests: [(0, .cap(Ratio(100)))])),
        ("LFC with the game working through the repeat's slot",
         SweepScenario(panel: .variable(Ratio(48), Ratio(144)), requests: [(0, .cap(Ratio(20)))],
                       work: [(0, 30 * ms)], hitches: [(700 * ms, 17 * ms)])),
        ("A preferred rate between the divisors of 143.856 Hz, then a range",
         SweepScenario(panel: .fixed(Ratio(17982, 125)),
                       requests: [(0, .preferred(Ratio(45))),
                                  (900 * ms, .range(minimum: Ratio(48), maximum: Ratio(90), preferred: Ratio(60)))])),
        // Found by the sweep.
        ("Timer-paced: a range whose minimum is above the preferred rate runs at the minimum",
         SweepScenario(panel: .fixed(Ratio(144)), vsync: false,
                       requests: [(0, .range(minimum: Ratio(300), maximum: nil, preferred: Ratio(200)))])),
        ("Overload on a VRR range with equal ends stays exact (the panel's own refreshes at 1/144 s, not rounded)",
         SweepScenario(panel: .variable(Ratio(144), Ratio(144)), requests: [(0, .cap(Ratio(165)))], work: [(0, 8 * ms)])),
        ("Narrow VRR range: after a hitch the target is a slot the panel can reach",
         SweepScenario(panel: .variable(Ratio(90), Ratio(100)),
                       requests: [(0, .range(minimum: nil, maximum: Ratio(2997, 50), preferred: Ratio(360)))],
                       work: [(0, 2 * ms)], hitches: [(500 * ms, 17 * ms)])),
        ("After a display change the cadence starts at the new grid's next vblank, even one after the last glass",
         SweepScenario(panel: .variable(Ratio(50), Ratio(60)), displayChanges: [(100_205_869, .fixed(Ratio(30)))],
                       requests: [(0, .range(minimum: Ratio(10), maximum: nil, preferred: Ratio(360)))],
                       work: [(0, 35 * ms)])),
        ("A 2 s hitch on a narrow VRR range restarts the cadence from the glass",
         SweepScenario(panel: .variable(Ratio(90), Ratio(100)), work: [(0, 12 * ms)], hitches: [(2_339_720, 2_000 * ms)])),
        ("Driver LFC: 47 FPS on 48-144 with 15 ms of work, each repeat falling while the game works",
         SweepScenario(panel: .variable(Ratio(48), Ratio(144)), requests: [(0, .cap(Ratio(47)))],
                       work: [(0, 15 * ms)], duration: 3_000 * ms)),
        ("Driver LFC: rates crossing the minimum both ways, the repeats' spacing catching up",
         SweepScenario(panel: .variable(Ratio(40), Ratio(60)),
                       requests: [(0, .cap(Ratio(60))), (500 * ms, .cap(Ratio(30))), (1_200 * ms, .cap(Ratio(55))),
                                  (1_600 * ms, .cap(Ratio(21)))],
                       work: [(0, 12 * ms)], hitches: [(1_800 * ms, 50 * ms)])),
        ("LFC whose forced repeats the game's work covers (33 Hz on 90-100 with 20 ms of work)",
         SweepScenario(panel: .variable(Ratio(90), Ratio(100)), requests: [(0, .cap(Ratio(40)))], work: [(0, 20 * ms)])),
        ("Uncapped frames of no work after a paced one still have rising targets",
         SweepScenario(panel: .variable(Ratio(50), Ratio(60)), requests: [(0, .displayRate), (493 * ms, .uncapped)],
                       work: [(0, 0)])),
        ("A work ceiling carried onto a refitted display keeps its place among its rates (35 ms, 59.94 then 60000/1001 Hz, low latency)",
         SweepScenario(panel: .fixed(Ratio(2997, 50)), fullscreen: false,
                       displayChanges: [(1_138_510_796, .fixed(Ratio(60000, 1001))), (1_456_335_895, .fixed(Ratio(17982, 125)))],
                       requests: [(0, .range(minimum: nil, maximum: nil, preferred: Ratio(300)))], work: [(0, 35 * ms)],
                       hitches: [(62_787_572, 1 * ms), (656_421_371, 1 * ms)], duration: 2_383_735_902, latency: .low)),
        ("The same on a VRR panel shown at its fixed rate (35 ms, 59.94 then 20-60 Hz)",
         SweepScenario(panel: .variable(Ratio(24000, 1001), Ratio(60000, 1001)), fullscreen: false,
                       displayChanges: [(1_081_132_323, .variable(Ratio(20), Ratio(60)))],
                       requests: [(0, .cap(Ratio(144))), (220_781_216, .displayRate),
                                  (817_925_403, .range(minimum: Ratio(100), maximum: nil, preferred: Ratio(90))),
                                  (1_753_773_992, .preferred(Ratio(144)))],
                       work: [(0, 35 * ms), (1_579_949_502, 35 * ms)], duration: 1_760_456_207, latency: .low)),
        ("The work's rate follows the work both ways: spinning-sprite --simulate-display fixed:60 --work-schedule 0:5,1:20,2:5,3:40,4:16.5,5:16.7",
         SweepScenario(panel: .fixed(Ratio(60)),
                       work: [(0, 5 * ms), (1_000 * ms, 20 * ms), (2_000 * ms, 5 * ms), (3_000 * ms, 40 * ms),
                              (4_000 * ms, 16_500_000), (5_000 * ms, 16_700_000)],
                       duration: 6_000 * ms, workSteps: true)),
        ("Vsync back on a VRR panel after uncapped: the driver starts afresh from the last flip (10 Hz on 90-100)",
         SweepScenario(panel: .variable(Ratio(90), Ratio(100)),
                       requests: [(0, .preferred(Ratio(40))), (514 * ms, .uncapped), (1_267 * ms, .preferred(Ratio(10)))],
                       work: [(0, 12 * ms)])),
        ("A cap of 23.5 on a 40-60 Hz VRR panel: work shrinking to 41.7 ms, which 23.5 Hz holds, climbs back to 23.5, not 23",
         SweepScenario(panel: .variable(Ratio(40), Ratio(60)), requests: [(0, .cap(Ratio(47, 2)))],
                       work: [(0, 44_900_000), (1_000 * ms, 41_700_000)], workSteps: true)),
        ("Work ramping past 10 Hz's interval on VRR 90-100 (to 100.6 ms under a cap of 30): 9 Hz, every frame on target",
         SweepScenario(panel: .variable(Ratio(90), Ratio(100)), requests: [(0, .cap(Ratio(30)))],
                       work: ramp([85.8, 87.5, 89.3, 91.1, 92.9, 94.8, 96.7, 98.6, 100.6]), duration: 3_640 * ms)),
        ("The same to 107.2 ms under a cap of 24, low latency: 9 Hz, every frame on target",
         SweepScenario(panel: .variable(Ratio(90), Ratio(100)), requests: [(0, .cap(Ratio(24)))],
                       work: ramp([91.5, 93.3, 95.2, 97.1, 99.0, 101.0, 103.0, 105.1, 107.2]), duration: 3_440 * ms,
                       latency: .low)),
        ("Just in time after a late frame on VRR 50-60 (work ramping to 39 ms, 25 Hz): the cadence starts again from its glass, frames on target",
         SweepScenario(panel: .variable(Ratio(50), Ratio(60)), requests: [(0, .cap(Ratio(60)))],
                       work: [(0, 24_800_000), (554_787_087, 27_600_000), (1_136_820_349, 31_700_000),
                              (1_245_097_289, 34_700_000), (1_359_730_471, 39 * ms)],
                       duration: 2_958_892_925, latency: .low)),
    ]

    /// Work rising through `milliseconds`, one step every 150 ms from the start.
    private static func ramp(_ milliseconds: [Double]) -> [(Nanoseconds, Nanoseconds)] {
        milliseconds.enumerated().map { (Nanoseconds($0.offset) * 150 * ms, Nanoseconds(($0.element * 10).rounded()) * 100_000) }
    }
}
