/// A display's vblank grid from the platform's own vblank counter: pairs of
/// (counter, time) such as the X Present extension's (MSC, UST).
///
/// Unlike present returns, each pair names its vblank, so nothing is guessed:
/// a least-squares line of time against counter over the recent pairs gives
/// the period, and the line at the newest counter the phase. Fitting rather
/// than taking the last pair alone smooths a clock stamped by a coarse timer
/// (Xvfb's fake clock ticks on a millisecond timer).
///
/// A pair more than half a period off the line names another vblank than the
/// line does: the clock jumped, or the mode changed unheard of. One such pair
/// alone is set aside (a glitch); two in a row start the fit over from them,
/// so what was learned from the old line is unlearned. A clock whose ticks
/// are stamped when a timer ran strays that far by itself: Xvfb's fake clock
/// stamps each with the time its timer fired and numbers it by the nearest
/// vblank, so a server short of CPU sends pairs up to half a period off
/// either side (every one still naming its vblank), and two of them in a row
/// past a line a little off started the fit over from a few such pairs
/// (153 Hz for 144 under load, and no grid for two frames). So the bound is
/// the larger of half a period and the farthest the line's own pairs lie
/// from it plus a quarter period: exact clocks (a kernel's vblank) keep half
/// a period, a timer's clock gets about three quarters.
package struct VblankCounterFit: Sendable {
    /// How many recent pairs the fit uses.
    public let window: Int
    private var samples: [(counter: Int64, time: Nanoseconds)] = []
    /// A pair that left the line, held back until the next says whether the line moved.
    private var offLine: (counter: Int64, time: Nanoseconds)?

    /// The fewest pairs, spanning at least two vblanks, a grid is fitted from.
    public static let minimumSamples = 4

    /// An empty fit over the last `window` pairs.
    public init(window: Int = 240) {
        precondition(window >= Self.minimumSamples, "the window must hold enough pairs to fit")
        self.window = window
    }

    /// Adds a pair; one with the counter of the newest pair is a repeat and
    /// ignored, one going backwards (a new counter: a mode or output change)
    /// starts over, one off the line is held back (see the type's notes).
    public mutating func add(counter: Int64, time: Nanoseconds) {
        let newest = offLine ?? samples.last
        if let newest {
            if counter == newest.counter { return }
            if counter < newest.counter { return restart(from: [(counter, time)]) }
        }
        if let line = fittedLine(), isOff(line, counter: counter, time: time) {
            if let first = offLine { return restart(from: [first, (counter, time)]) }
            offLine = (counter, time)
            return
        }
        offLine = nil
        samples.append((counter, time))
        if samples.count > window { samples.removeFirst(samples.count - window) }
    }

    /// Whether a pair lies far enough off `line` to name another vblank: more
    /// than half a period, and more than the farthest its pairs lie from it
    /// plus a quarter period (read only for a pair past the first bound).
    private func isOff(_ line: LineFit, counter: Int64, time: Nanoseconds) -> Bool {
        let off = abs(Double(time) - line.value(at: Double(counter)))
        guard off > line.slope / 2 else { return false }
        let strayed = samples.map { abs(Double($0.time) - line.value(at: Double($0.counter))) }.max() ?? 0
        return off > strayed + line.slope / 4
    }

    /// Forgets every pair.
    public mutating func reset() { restart(from: []) }

    private mutating func restart(from pairs: [(counter: Int64, time: Nanoseconds)]) {
        samples = pairs
        offLine = nil
    }

    /// The grid through the pairs, instant 0 at the newest counter; nil until
    /// there are ``minimumSamples`` pairs over two vblanks or more. `nominal`
    /// is the rate the system reports (the grid's ``VsyncGrid/nominalRate``).
    public func grid(nominal: FrameRate? = nil) -> VsyncGrid? {
        guard let line = fittedLine(), let last = samples.last else { return nil }
        return VsyncGrid(origin: Nanoseconds(line.value(at: Double(last.counter)).rounded()),
                         rate: FrameRate(hz: 1e9 / line.slope), nominal: nominal, measured: true)
    }

    /// Time against counter, both counted from the oldest pair so the sums
    /// keep their precision; nil while too few pairs or no sensible period.
    private func fittedLine() -> LineFit? {
        guard samples.count >= Self.minimumSamples, let first = samples.first, let last = samples.last,
              last.counter - first.counter >= 2,
              let line = LineFit(samples.map { (Double($0.counter - first.counter), Double($0.time - first.time)) }),
              line.slope > 0, line.slope < 1e9 else { return nil }
        // Back in absolute terms: the line at counter k is first.time + intercept + slope × (k − first.counter).
        return LineFit(intercept: Double(first.time) + line.intercept - line.slope * Double(first.counter),
                       slope: line.slope)
    }
}
