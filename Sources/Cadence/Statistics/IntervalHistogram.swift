/// A fixed-size histogram of time spans, for percentiles over a whole run in
/// constant memory.
///
/// Spans up to 100 ms land in 1 µs buckets (exact enough for pacing figures);
/// longer ones in 1 ms buckets up to 10 s; anything longer in one overflow
/// bucket reported as its largest value. Memory stays flat however long the
/// game runs, which a list of every interval would not.
package struct IntervalHistogram: Sendable {
    private static let fineBucket: Nanoseconds = 1_000
    private static let fineCount = 100_000
    private static let coarseBucket: Nanoseconds = 1_000_000
    private static let coarseCount = 9_900

    private var fine = [UInt32](repeating: 0, count: fineCount)
    private var coarse = [UInt32](repeating: 0, count: coarseCount)
    private var overflow = 0
    /// How many spans were recorded.
    package private(set) var count = 0
    /// The largest span recorded (0 when empty).
    package private(set) var maximum: Nanoseconds = 0

    /// An empty histogram.
    package init() {}

    /// Records one span; negative spans count as zero.
    package mutating func record(_ span: Nanoseconds) {
        let s = max(0, span)
        count += 1
        maximum = max(maximum, s)
        let fineIndex = Int(s / Self.fineBucket)
        if fineIndex < Self.fineCount {
            fine[fineIndex] &+= 1
            return
        }
        let coarseIndex = Int(s / Self.coarseBucket) - Int(Self.fineCount) / 1_000
        if coarseIndex < Self.coarseCount { coarse[coarseIndex] &+= 1 } else { overflow += 1 }
    }

    /// The span below which a fraction `q` (0…1) of the recorded spans fall,
    /// as the midpoint of its bucket; nil when empty.
    package func percentile(_ q: Double) -> Nanoseconds? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((q * Double(count)).rounded(.up)))
        var seen = 0
        for (i, n) in fine.enumerated() where n > 0 {
            seen += Int(n)
            if seen >= rank { return min(maximum, Nanoseconds(i) * Self.fineBucket + Self.fineBucket / 2) }
        }
        for (i, n) in coarse.enumerated() where n > 0 {
            seen += Int(n)
            if seen >= rank {
                let start = Nanoseconds(Self.fineCount) * Self.fineBucket + Nanoseconds(i) * Self.coarseBucket
                return min(maximum, start + Self.coarseBucket / 2)
            }
        }
        return maximum
    }
}
