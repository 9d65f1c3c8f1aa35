import Foundation
import Testing

/// A real-time CSV trace of the sample, read for the compositor tests, and
/// the robust statistics they judge it with (a loaded machine delays some
/// presents by milliseconds, so nothing here trusts a single frame).
struct CompositorTrace {
    /// One frame's row; times in seconds from the run's start.
    struct Row {
        let frame: Int
        let target: Double
        /// When present returned (real time): after the compositor's repaint.
        let present: Double
        /// This target minus the previous one, skipped slots included.
        let delta: Double
        let fpsCap: String
        let effectiveHz: Double
        let refreshMode: String
        /// When the frame's callback started (the link planned it just before).
        let callback: Double
        /// When the frame reached the glass, as the sample's clock says (its `glass_source`).
        let glass: Double
        /// Where `glass` came from (`feedback`: the compositor's report); nil in traces without it.
        let glassSource: String?
        /// What held the rate (`limited_by`); nil in traces without it.
        let limitedBy: String?

        /// How long after its target the frame reached the glass, in seconds; 0 when on time.
        var lateness: Double { max(0, glass - target) }
    }

    let rows: [Row]
    /// The run's start on `CLOCK_MONOTONIC` (seconds; its `run_start`), which
    /// joins a row to a compositor's own record; nil in traces without it.
    let runStart: Double?

    init(path: String) throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        // Columns by name: later versions append columns, never reorder them.
        let header = (lines.first ?? "").split(separator: ",").map(String.init)
        let names = ["frame", "target_timestamp", "present_time", "delta", "fps_cap", "effective_hz", "refresh_mode",
                     "glass_time", "callback_time"]
        let column = try names.map { name in try #require(header.firstIndex(of: name), "no \(name) column in \(header)") }
        let sourceColumn = header.firstIndex(of: "glass_source"), reasonColumn = header.firstIndex(of: "limited_by")
        let startColumn = header.firstIndex(of: "run_start")
        rows = try lines.dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            try #require(f.count == header.count, "malformed trace row: \(line)")
            return Row(frame: try #require(Int(f[column[0]])), target: try #require(Double(f[column[1]])),
                       present: try #require(Double(f[column[2]])), delta: try #require(Double(f[column[3]])),
                       fpsCap: f[column[4]], effectiveHz: try #require(Double(f[column[5]])), refreshMode: f[column[6]],
                       callback: try #require(Double(f[column[8]])), glass: try #require(Double(f[column[7]])), glassSource: sourceColumn.map { f[$0] },
                       limitedBy: reasonColumn.map { f[$0] })
        }
        let firstRow = lines.dropFirst().first?.split(separator: ",", omittingEmptySubsequences: false)
        runStart = startColumn.flatMap { column in firstRow.flatMap { Double($0[column]) } }
    }

    /// The rows whose present returned within `range` seconds of the first frame's
    /// (start-up, which opens XWayland's connection, takes a variable second or so).
    func rows(from start: Double, to end: Double = .infinity) -> [Row] {
        guard let first = rows.first?.present else { return [] }
        return rows.filter { (start..<end).contains($0.present - first) }
    }

    /// The rows with `fpsCap`, in order.
    func rows(cap: String) -> [Row] { rows.filter { $0.fpsCap == cap } }

    /// The rows of `rows` presented in the last `seconds` of them.
    static func last(_ seconds: Double, of rows: [Row]) -> [Row] {
        guard let end = rows.last?.present else { return [] }
        return rows.filter { $0.present >= end - seconds }
    }

    /// The runs of consecutive rows with `fpsCap`, each without its first
    /// `settling` seconds (start-up, or the switch to that cap).
    func segments(cap: String, settling: Double) -> [[Row]] {
        var segments: [[Row]] = []
        for (i, row) in rows.enumerated() where row.fpsCap == cap {
            if i == 0 || rows[i - 1].fpsCap != cap { segments.append([]) }
            segments[segments.count - 1].append(row)
        }
        return segments.map { segment in segment.filter { $0.present - segment[0].present >= settling } }
    }
}

/// Robust statistics over present times.
enum PresentStatistics {
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// Successive differences of present-return times.
    static func intervals(_ rows: [CompositorTrace.Row]) -> [Double] {
        zip(rows, rows.dropFirst()).map { $1.present - $0.present }
    }

    /// The time between the presents of a run that presents evenly; for one
    /// that presents every frame (vsync on, uncapped), the compositor's period.
    ///
    /// Every interval spans a whole number of the usual step (one repaint, or
    /// more where a frame missed one). The median interval is one step; each interval is
    /// then counted as the nearest whole number of repaints, and the period is
    /// the time they span over the steps they count: scheduling noise, which
    /// delays single returns by milliseconds, cancels over the run. Intervals
    /// too far from any whole number to count unambiguously are left out.
    ///
    /// `segments` are stretches of such a run (the time between them is not counted).
    static func repaintPeriod(_ segments: [[CompositorTrace.Row]]) -> Double {
        let all = segments.flatMap(intervals)
        let guess = median(all)
        var span = 0.0, repaints = 0.0
        for interval in all {
            let k = (interval / guess).rounded()
            guard k >= 1, abs(interval - k * guess) < guess / 4 else { continue }
            span += interval
            repaints += k
        }
        return span / repaints
    }

    /// How late each of `rows` reached the glass, in seconds, of those on
    /// the glass more than half a millisecond after their targets.
    static func lateness(_ rows: [CompositorTrace.Row]) -> [Double] {
        rows.map(\.lateness).filter { $0 > 0.000_5 }
    }

    /// Apple's hitch ratio: milliseconds late per second, of `lateness` over a run `span` seconds long.
    static func hitchRatio(_ lateness: [Double], over span: Double) -> Double {
        lateness.reduce(0, +) * 1000 / span
    }

    /// What holds on a busy machine as on a quiet one, checked on every run:
    /// every frame names what held its rate;
    /// no frame on the glass before its target where the platform measured
    /// the glass (an estimated glass time moves with every refit of the
    /// estimate, by a fraction of a millisecond), and at a cap no planned rate above it and no two targets
    /// closer than its interval (less a millisecond: a refitted clock moves
    /// a target by a fraction of a refresh, and the presenter spaces the
    /// presents themselves by the cap's interval).
    /// `earlyTolerance` is how far a measured glass time may lie before its
    /// target: 0.1 ms, or the clock's own jitter where it is coarser (Xvfb's
    /// fake Present clock ticks on a millisecond timer, so its vblanks, and
    /// the grid fitted to them, move by up to a millisecond; a frame a whole
    /// vblank early is 7 ms early even at 144 Hz).
    static func expectSemantics(_ rows: [CompositorTrace.Row], cap: Double?, _ what: String,
                                earlyTolerance: Double = 0.000_1) {
        let early = rows.filter { ["feedback", "vblank"].contains($0.glassSource) && $0.glass < $0.target - earlyTolerance }
        let shown = early.prefix(3).map { "frame \($0.frame) \(($0.target - $0.glass) * 1e6) µs early" }
        #expect(early.isEmpty, "\(what): \(early.count) frames on the glass before their targets: \(shown)")
        // Below what the request gives, a frame names what held it: the presents or the work.
        let unexplained = rows.filter { !["request", "display-rate", "even-rate", "presents", "work"].contains($0.limitedBy ?? "") }
        #expect(unexplained.isEmpty, "\(what): frames with no reason for their rate: \(Set(unexplained.map { $0.limitedBy ?? "none" }))")
        guard let cap, cap > 0 else { return }
        #expect(rows.allSatisfy { $0.effectiveHz <= cap * 1.002 }, "\(what): planned \(Set(rows.map(\.effectiveHz)))")
        let close = zip(rows, rows.dropFirst()).filter { $1.target - $0.target < 1 / cap - 0.001 }
        #expect(close.isEmpty, "\(what): targets closer than the cap's interval at frames \(close.prefix(5).map(\.1.frame))")
    }

    /// The fraction of `values` within `range`.
    static func fraction(_ values: [Double], in range: ClosedRange<Double>) -> Double {
        values.isEmpty ? 0 : Double(values.filter { range.contains($0) }.count) / Double(values.count)
    }
}
