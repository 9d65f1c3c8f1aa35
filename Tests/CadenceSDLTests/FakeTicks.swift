@_spi(Programs) import Cadence
@_spi(Programs) @testable import CadenceSDL

/// A platform clock's watcher fed by the test: the ticks queued since the
/// last read, or a broken connection.
final class FakeTicks: FrameFeedbackSource {
    var pending: [VblankTick] = []
    var broken = false
    var reports: [GlassFeedback] = []
    private var tickets = 0

    func readTicks() -> [VblankTick]? {
        guard !broken else { return nil }
        defer { pending = [] }
        return pending
    }

    func requestFeedback() -> Int? {
        tickets += 1
        return tickets
    }

    func takeReports() -> [GlassFeedback] {
        defer { reports = [] }
        return reports
    }

    var discardedFrames: Int { 0 }
}

/// A generator of the same numbers on every run.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        // SplitMix64.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
