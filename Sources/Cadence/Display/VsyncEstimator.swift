/// Recovers a display's vblank grid from the jittery times present calls return.
///
/// SDL reports refresh rates as integers (60 for a 59.951 Hz panel) and present
/// returns are late by a varying amount (under Xvfb, by milliseconds). The
/// estimator fits `t = phase + k × period` by least squares over a window of
/// recent presents, each assigned the vblank index nearest to it, discards
/// samples far off the line and refits. Present returns are only ever late, so
/// the phase is then moved down to the early edge of the samples (their 10th
/// percentile residual): the earliest returns are the ones nearest the vblank.
@_spi(Programs) public struct VsyncEstimator: Sendable {
    /// The rate the estimate starts from: what SDL reports.
    public let nominal: FrameRate
    /// How many recent presents the fit uses.
    public let window: Int
    /// The last ``window`` present returns, oldest first.
    private var samples: RingBuffer<Nanoseconds>
    /// The fitted grid, once there are enough samples; nil before.
    public private(set) var grid: VsyncGrid?

    /// The fewest samples the estimator fits from.
    public static let minimumSamples = 16

    /// An estimator starting from SDL's `nominal` rate.
    public init(nominal: FrameRate, window: Int = 240) {
        precondition(window >= Self.minimumSamples, "the window must hold enough samples to fit")
        self.nominal = nominal
        self.window = window
        samples = RingBuffer(capacity: window)
    }

    /// The measured refresh rate, or nil until the estimate exists.
    public var measuredRate: FrameRate? { grid?.rate }

    /// Adds the time a present returned and refits.
    public mutating func addPresent(at time: Nanoseconds) {
        samples.append(time)
        guard samples.count >= Self.minimumSamples else { return }
        grid = fit()
    }

    /// Whether a present that blocked for `blocked` waited for the display: a
    /// quarter refresh or more. One that returned sooner did not wait for any
    /// vblank (on Wayland, SDL waits only for the previous frame's callback,
    /// which at a capped rate came long before), so its return is when the
    /// loop chose to present plus a copy. A present that waits for the vblank
    /// is made half a refresh before it (see `PresentPlan`): a quarter lies
    /// between the two.
    public func waitedForDisplay(blocked: Nanoseconds) -> Bool {
        blocked >= (grid?.rate ?? nominal).period / 4
    }

    /// Adds a present called at `submitted` that returned at `returned`, if it
    /// waited for the display (``waitedForDisplay(blocked:)``): fitted, the
    /// return of one that did not would pull the grid along with the loop's
    /// own schedule.
    public mutating func addPresent(submittedAt submitted: Nanoseconds, returnedAt returned: Nanoseconds) {
        guard waitedForDisplay(blocked: returned - submitted) else { return }
        addPresent(at: returned)
    }

    /// Forgets everything (a mode change invalidates the old grid).
    public mutating func reset() {
        samples = RingBuffer(capacity: window)
        grid = nil
    }

    /// How far the measured period may be from the nominal one: 10%.
    static let largestDeviation = 0.1

    private func fit() -> VsyncGrid? {
        let ordered = samples.elements
        guard let first = ordered.first else { return nil }
        var period = Double((grid?.rate ?? nominal).period)
        var points = ordered.map { (k: 0.0, t: Double($0 - first)) }
        var line: LineFit?
        for _ in 0..<2 {
            if let line {
                for i in points.indices { points[i].k = ((points[i].t - line.intercept) / period).rounded() }
            } else {
                Self.countVblanksBetweenPresents(&points, period: period)
            }
            guard let fitted = LineFit(points.map { ($0.k, $0.t) }) else { return grid }
            line = fitted
            period = fitted.slope
            // Keep samples within a quarter period of the line: a present that
            // returned a whole vblank late is assigned its own index, not averaged in.
            let kept = points.filter { abs($0.t - fitted.value(at: $0.k)) < period / 4 }
            if kept.count >= Self.minimumSamples { points = kept }
        }
        // A display runs near the rate the system reports for it (a compositor SDL
        // calls 60 Hz repaints at 62.5): a fit far from that was made of presents
        // that did not land on a grid at all, and pacing on it would run away.
        guard let line, line.slope > 0,
              abs(line.slope - Double(nominal.period)) <= Self.largestDeviation * Double(nominal.period) else { return grid }
        let residuals = points.map { $0.t - line.value(at: $0.k) }.sorted()
        let earlyEdge = residuals[residuals.count / 10]
        let origin = first + Nanoseconds((line.intercept + earlyEdge).rounded())
        return VsyncGrid(origin: origin, rate: FrameRate(hz: 1e9 / line.slope), nominal: nominal, measured: true)
    }

    /// Numbers the samples by the vblanks between successive ones, for the
    /// first fit. Rounding each sample's whole time since the first instead
    /// fits back the period it divided by: from SDL's 60 for a 62.5 Hz
    /// compositor, a sample a second in is off by two or more vblanks, and the
    /// line through such numbers keeps the slope it was given. Counted step by
    /// step, a period a few percent off numbers every step right, and a return
    /// late by over half a period followed by a prompt one still adds up (1.6
    /// and 0.4 periods count 2 and 0); the second fit then numbers from the
    /// fitted line.
    private static func countVblanksBetweenPresents(_ points: inout [(k: Double, t: Double)], period: Double) {
        var k = 0.0
        for i in points.indices {
            if i > 0 { k += ((points[i].t - points[i - 1].t) / period).rounded() }
            points[i].k = k
        }
    }
}
