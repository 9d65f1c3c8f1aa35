import Foundation

/// Weston's timeline (`--logger-scopes=log,timeline`), read from its log: the
/// compositor's own record of which surfaces each repaint of its output
/// flushed and when that repaint's vblank was (CLOCK_MONOTONIC), the ground
/// truth against which the sample's own account is checked.
struct WestonTimeline {
    /// The vblank (CLOCK_MONOTONIC nanoseconds) of every repaint that flushed
    /// damage of the surface described as `surface`: a new frame of it on the
    /// output, in order.
    let frames: [Int64]
    /// Every repaint's vblank, in order.
    let repaints: [Int64]

    /// Reads the timeline in `log` for the surface whose description contains
    /// `surface` (XWayland describes a window as "top-level window 'title'").
    init(log: String, surface: String) {
        var ids = Set<Int>(), flushed = false, frames: [Int64] = [], repaints: [Int64] = []
        for line in log.split(separator: "\n") where line.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if let id = object["id"] as? Int, (object["desc"] as? String)?.contains(surface) == true {
                ids.insert(id)
            }
            switch object["N"] as? String {
            case "core_flush_damage":
                if let id = object["ws"] as? Int, ids.contains(id) { flushed = true }
            case "core_repaint_finished":
                guard let vblank = object["vblank_monotonic"] as? [Int64], vblank.count == 2 else { continue }
                let time = vblank[0] * 1_000_000_000 + vblank[1]
                repaints.append(time)
                if flushed { frames.append(time) }
                flushed = false
            default: break
            }
        }
        self.frames = frames
        self.repaints = repaints
    }

    /// New frames of the surface a second over its frames from `start` on
    /// (nanoseconds, CLOCK_MONOTONIC): intervals over the time they span.
    func rate(of times: [Int64], from start: Int64) -> Double {
        let kept = times.filter { $0 >= start }
        guard let first = kept.first, let last = kept.last, kept.count > 1 else { return .nan }
        return Double(kept.count - 1) / (Double(last - first) / 1e9)
    }
}
