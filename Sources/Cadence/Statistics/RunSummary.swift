/// The one-line account of a run: what `spinning-sprite` prints at exit and
/// what a trace file ends with.
public struct RunSummary: Equatable, Sendable {
    /// Frames presented.
    public var frames: Int
    /// Median interval between consecutive presents, in ns (nil before two frames).
    public var p50Interval: Nanoseconds?
    /// 99th-percentile interval between consecutive presents, in ns.
    public var p99Interval: Nanoseconds?
    /// Frames that reached the glass after their target.
    public var lateFrames: Int
    /// Intervals more than 1.5× the link's interval for that frame: visible hitches.
    public var hitches: Int
    /// Median input-to-glass latency (on glass, or present return in real
    /// time, minus callback start), in ns; nil before the first frame.
    public var p50Latency: Nanoseconds? = nil

    /// `frames 600, interval p50 16.667 ms p99 16.701 ms, late 0, hitches 0, latency p50 2.500 ms`.
    public var line: String {
        func ms(_ ns: Nanoseconds?) -> String {
            guard let ns else { return "–" }
            let micro = (ns + 500) / 1_000
            let fraction = String(micro % 1_000 + 1_000).dropFirst()
            return "\(micro / 1_000).\(fraction) ms"
        }
        return "frames \(frames), interval p50 \(ms(p50Interval)) p99 \(ms(p99Interval)), late \(lateFrames), hitches \(hitches)"
            + ", latency p50 \(ms(p50Latency))"
    }
}
