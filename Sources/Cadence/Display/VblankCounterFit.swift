/// A display's vblank grid from the platform's own vblank counter: pairs of
/// (counter, time) such as the X Present extension's (MSC, UST).
///
/// Unlike present returns, each pair names its vblank, so nothing is guessed:
/// a least-squares line of time against counter over the recent pairs gives
/// the period, and the line at the newest counter the phase. Fitting rather
/// than taking the last pair alone smooths a clock stamped by a coarse timer
/// (Xvfb's fake clock ticks on a millisecond timer).
package struct VblankCounterFit: Sendable {
    /// How many recent pairs the fit uses.
    public let window: Int
    private var samples: [(counter: Int64, time: Nanoseconds)] = []

    /// The fewest pairs, spanning at least two vblanks, a grid is fitted from.
    public static let minimumSamples = 4

    /// An empty fit over the last `window` pairs.
    public init(window: Int = 240) {
        precondition(window >= Self.minimumSamples, "the window must hold enough pairs to fit")
        self.window = window
    }

    /// Adds a pair; one with the counter of the newest pair is a repeat and
    /// ignored, one going backwards (a new counter: a mode or output change)
    /// starts over.
    public mutating func add(counter: Int64, time: Nanoseconds) {
        if let last = samples.last {
            if counter == last.counter { return }
            if counter < last.counter { samples.removeAll(keepingCapacity: true) }
        }
        samples.append((counter, time))
        if samples.count > window { samples.removeFirst(samples.count - window) }
    }

    /// Forgets every pair.
    public mutating func reset() { samples.removeAll(keepingCapacity: true) }

    /// The grid through the pairs, instant 0 at the newest counter; nil until
    /// there are ``minimumSamples`` pairs over two vblanks or more. `nominal`
    /// is the rate the system reports (the grid's ``VsyncGrid/nominalRate``).
    public func grid(nominal: FrameRate? = nil) -> VsyncGrid? {
        guard samples.count >= Self.minimumSamples, let first = samples.first, let last = samples.last,
              last.counter - first.counter >= 2 else { return nil }
        let n = Double(samples.count)
        let meanK = samples.reduce(0.0) { $0 + Double($1.counter - first.counter) } / n
        let meanT = samples.reduce(0.0) { $0 + Double($1.time - first.time) } / n
        var sKK = 0.0, sKT = 0.0
        for s in samples {
            let k = Double(s.counter - first.counter) - meanK
            sKK += k * k
            sKT += k * (Double(s.time - first.time) - meanT)
        }
        let period = sKT / sKK
        guard period > 0, period < 1e9 else { return nil }
        let newest = meanT + period * (Double(last.counter - first.counter) - meanK)
        return VsyncGrid(origin: first.time + Nanoseconds(newest.rounded()), rate: FrameRate(hz: 1e9 / period),
                         nominal: nominal, measured: true)
    }
}
