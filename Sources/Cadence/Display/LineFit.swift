/// The least-squares line `y = intercept + slope × x` through points: how a
/// vblank grid is read from (vblank number, time) pairs, whether the numbers
/// are the platform's own counter (``VblankCounterFit``) or assigned to
/// present returns (``VsyncEstimator``).
package struct LineFit: Equatable, Sendable {
    /// The line's value at x = 0.
    package let intercept: Double
    /// How much y grows per unit of x: a grid's period.
    package let slope: Double

    /// The line with this intercept and slope.
    package init(intercept: Double, slope: Double) {
        self.intercept = intercept
        self.slope = slope
    }

    /// The line through `points`; nil when their x values are all the same
    /// (no slope can be told) or there are none.
    package init?(_ points: [(x: Double, y: Double)]) {
        guard !points.isEmpty else { return nil }
        let n = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.x } / n
        let meanY = points.reduce(0) { $0 + $1.y } / n
        var sXX = 0.0, sXY = 0.0
        for p in points {
            sXX += (p.x - meanX) * (p.x - meanX)
            sXY += (p.x - meanX) * (p.y - meanY)
        }
        guard sXX > 0 else { return nil }
        slope = sXY / sXX
        intercept = meanY - slope * meanX
    }

    /// The line's value at `x`.
    package func value(at x: Double) -> Double { intercept + slope * x }
}
