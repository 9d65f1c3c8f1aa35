import Cadence
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How evenly one limiter paced one run, and what it cost.
struct PacingFigures {
    /// The limiter measured.
    let limiter: Limiter
    /// The rate asked for.
    let fps: Int
    /// Intervals measured (after the warm-up).
    let intervals: Int
    /// |present interval − 1/fps|, sorted ascending, in ns.
    private let errors: [Nanoseconds]
    /// CPU time of the pacing thread over the measured frames, in ns.
    let cpu: Nanoseconds
    /// Wall time over the measured frames, in ns.
    let wall: Nanoseconds

    /// Figures from stretches of frames: the intervals between presents
    /// inside each stretch, and the CPU and wall time summed over them.
    init(limiter: Limiter, fps: Int, stretches: [Stretch]) {
        self.limiter = limiter
        self.fps = fps
        cpu = stretches.reduce(0) { $0 + $1.cpu }
        wall = stretches.reduce(0) { $0 + $1.wall }
        let ideal = 1e9 / Double(fps)
        errors = stretches.flatMap { stretch in
            zip(stretch.presents, stretch.presents.dropFirst()).map { Nanoseconds(abs(Double($1 - $0) - ideal).rounded()) }
        }.sorted()
        intervals = errors.count
    }

    /// The `q` quantile (0…1) of the errors, nearest rank.
    func error(quantile q: Double) -> Nanoseconds {
        errors.nearestRank(q) ?? 0
    }

    /// The 99th percentile error: the figure the targets are about.
    var p99: Nanoseconds { error(quantile: 0.99) }

    /// CPU time as a share of wall time (1 = a whole core).
    var cpuShare: Double { wall > 0 ? Double(cpu) / Double(wall) : 0 }
}
