/// The one-line account of a run: what `spinning-sprite` prints at exit and
/// what a trace file ends with.
///
/// Every figure comes from when frames reached the glass (their
/// ``FrameRecord/glassTime``), not from the rate the link planned: a display
/// or a present path that cannot keep up shows here as a lower achieved rate
/// and late frames. The line ends by saying which of those times were
/// measured on the platform's clock and which estimated or inferred.
/// `print(statistics.runSummary)` prints that line.
public struct RunSummary: Equatable, Sendable, CustomStringConvertible {
    /// Frames presented.
    public var frames: Int
    /// Frames that reached the glass per second of run, from present-to-present
    /// intervals (time paused is not counted); nil before two frames.
    public var achievedFPS: Double?
    /// Median interval between consecutive presents, in ns (nil before two frames).
    public var p50Interval: Nanoseconds?
    /// 99th-percentile interval between consecutive presents, in ns.
    public var p99Interval: Nanoseconds?
    /// Frames late for their target (see ``FrameRecord/lateness``): on the
    /// glass where there is one, by submission where there is none; not the
    /// run's start-up before the link knew the display's grid (see
    /// ``FrameStatistics/startUpSpan``).
    public var lateFrames: Int
    /// Apple's hitch time ratio: the total time late frames reached the glass
    /// after their targets, in milliseconds per second of run. At most 5 ms/s
    /// is a good experience.
    public var hitchRatio: Double
    /// Median input-to-glass latency (on glass, or present return in real
    /// time, minus callback start), in ns; nil before the first frame.
    public var p50Latency: Nanoseconds? = nil
    /// Frames by where their glass time came from (see ``GlassTimeSource``).
    public var glassSources: [GlassTimeSource: Int] = [:]
    /// What a frame cost the loop's thread in CPU time, on average (see
    /// ``FrameCPU``); nil where the backend has no CPU clock.
    public var cpuPerFrame: FrameCPU? = nil

    /// The glass times' sources in words, most evidence first:
    /// `glass times measured (the platform's per-frame feedback) 598, estimated (…) 2`.
    public var glassSourceWords: String {
        let parts = GlassTimeSource.allCases.compactMap { source in
            glassSources[source].map { "\(source.words) \($0)" }
        }
        return "glass times " + (parts.isEmpty ? "–" : parts.joined(separator: ", "))
    }

    /// `frames 600, achieved 59.98 FPS, interval p50 16.667 ms p99 16.701 ms, late 0, hitch ratio 0.0 ms/s,
    /// latency p50 2.500 ms; glass times measured (the platform's per-frame feedback) 600`: the figures
    /// as they always were, then after a semicolon where the glass times came from. Where frames
    /// carry CPU figures, `cpu a frame: work 1.200 ms, pacing 0.052 ms (0.3% of a core), loop 1.900 ms
    /// (11.4% of a core)` comes before the semicolon.
    public var line: String {
        func ms(_ ns: Nanoseconds?) -> String {
            guard let ns else { return "–" }
            let micro = (ns + 500) / 1_000
            return "\(micro / 1_000).\(String(micro % 1_000 + 1_000).dropFirst()) ms"
        }
        let achieved = achievedFPS.map { fixedPoint($0, decimals: 2) } ?? "–"
        return "frames \(frames), achieved \(achieved) FPS, interval p50 \(ms(p50Interval)) p99 \(ms(p99Interval)), "
            + "late \(lateFrames), hitch ratio \(fixedPoint(hitchRatio, decimals: 1)) ms/s, latency p50 \(ms(p50Latency))"
            + (cpuPerFrame.map { cpu in
                ", cpu a frame: work \(ms(cpu.work)), pacing \(ms(cpu.pacing)) (\(Self.share(cpu.pacing, of: cpu.span))), "
                    + "loop \(ms(cpu.loop)) (\(Self.share(cpu.loop, of: cpu.span)))"
            } ?? "") + "; " + glassSourceWords
    }

    /// `part` of `whole` as a share of a core: `0.3% of a core`.
    static func share(_ part: Nanoseconds, of whole: Nanoseconds) -> String {
        whole > 0 ? "\(fixedPoint(Double(part) / Double(whole) * 100, decimals: 1))% of a core" : "– of a core"
    }

    /// The readable ``line``, so that printing a summary prints it.
    public var description: String { line }
}

/// `value` with exactly `decimals` digits after the point, rounded half away
/// from zero (`fixedPoint(59.984, decimals: 2)` is `"59.98"`), without Foundation.
func fixedPoint(_ value: Double, decimals: Int) -> String {
    var scale: Int64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * Double(scale)).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return "\(sign)\(scaled)" }
    let fraction = String(scaled % scale + scale).dropFirst()
    return "\(sign)\(scaled / scale).\(fraction)"
}
