#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How long before its target a frame's callback must start, learned from the
/// frames so far: the basis of ``FrameLatency/low``.
///
/// A frame's cost is ``FrameRecord/cost(on:)``: its work plus the present's
/// own cost, never the wait for a vblank. The prediction is a high
/// ``Tuning/quantile`` of that cost over the last ``Tuning/window`` frames: a
/// percentile rather than the maximum, so a rare hitch, which no prediction
/// could have saved, does not push every later frame early; a window of
/// frames long enough to span the slow phases of a game whose work comes and
/// goes, so a slow phase after a fast one is not late at its first frame.
///
/// To that comes a *safety*: ``Tuning/safetyBounds``' lower bound normally,
/// doubled after every late frame (lateness comes in bursts: another process
/// on the core, a scene that got heavier) and narrowed slowly back, its excess
/// halving every ``Tuning/halfLife``, so one bad frame costs a little latency
/// for a while rather than a run of late frames. Slowly means seconds: on a
/// shared machine the kernel's own threads take the core for milliseconds a
/// few times a second, and a safety that forgot each one within a second was
/// back at its floor when the next came (measured with `Scripts/bench latency`:
/// with an 8 s half-life a third fewer frames were late than with 1 s).
package struct FrameCostPredictor: Sendable {
    /// How the prediction is made.
    package struct Tuning: Equatable, Sendable {
        /// How many recent frames the percentile is taken over.
        package var window: Int
        /// The percentile of the recent costs taken as the prediction (0…1).
        package var quantile: Double
        /// The narrowest and widest safety added to the prediction.
        package var safetyBounds: ClosedRange<Nanoseconds>
        /// How long the safety's excess over its lower bound takes to halve.
        package var halfLife: Nanoseconds

        /// A tuning: by default the 95th percentile of the last 120 frames
        /// (2 s at 60 FPS, so six outliers are ignored), a safety of 0.5 ms to
        /// 4 ms halving back in 8 s.
        package init(window: Int = 120, quantile: Double = 0.95,
                    safetyBounds: ClosedRange<Nanoseconds> = 500_000...4_000_000,
                    halfLife: Nanoseconds = 8_000_000_000) {
            precondition(window > 0 && (0...1).contains(quantile) && safetyBounds.lowerBound >= 0 && halfLife > 0,
                         "a predictor needs a window, a quantile in 0…1, a non-negative safety and a half-life")
            self.window = window
            self.quantile = quantile
            self.safetyBounds = safetyBounds
            self.halfLife = halfLife
        }
    }

    /// How the prediction is made.
    package let tuning: Tuning
    /// The margin added to the predicted cost now.
    package private(set) var safety: Nanoseconds

    private var costs: RingBuffer<Nanoseconds>
    private var lastObserved: Nanoseconds?

    /// A predictor that has seen no frame yet.
    package init(tuning: Tuning = Tuning()) {
        self.tuning = tuning
        safety = tuning.safetyBounds.lowerBound
        costs = RingBuffer(capacity: tuning.window)
    }

    /// The predicted cost of the next frame (work plus present); nil before any frame.
    package var predictedCost: Nanoseconds? {
        costs.elements.sorted().nearestRank(tuning.quantile)
    }

    /// How long before its target the next callback should start: the
    /// predicted cost plus the safety; nil before any frame (start at once).
    package var lead: Nanoseconds? {
        predictedCost.map { $0 + safety }
    }

    /// Learns from one presented frame.
    ///
    /// - Parameters:
    ///   - cost: what the frame cost (``FrameRecord/cost(on:)``).
    ///   - late: whether the frame was late by a fault an earlier start would have mended.
    ///   - time: when it was presented, for the safety's decay.
    package mutating func observe(cost: Nanoseconds, late: Bool, at time: Nanoseconds) {
        costs.append(max(0, cost))
        decaySafety(to: time)
        if late { safety = min(tuning.safetyBounds.upperBound, max(safety * 2, 1)) }
    }

    /// Learns from a frame's record, presented on `timing`, as ``FrameLoop``
    /// does after every present.
    ///
    /// A late frame widens the safety only when its cost ran past the target.
    /// A timed present (variable refresh, no vsync) waits for its target after
    /// the work; a late one whose work and present fitted before the target was
    /// late by the wait's fault (a late wake-up on a busy machine), which an
    /// earlier callback would not have mended, so it leaves the safety alone.
    /// Behind a vsync wait the present's cost before its vblank cannot be told
    /// from the wait, so there any late frame counts. A hitch that overran by
    /// more than the widest safety leaves it alone too: no margin the
    /// predictor would keep could have saved it.
    package mutating func observe(_ record: FrameRecord, on timing: DisplayTiming) {
        let cost = record.cost(on: timing)
        let overrun = record.callbackStart + cost - record.slotTimestamp
        let overran = record.refreshMode == .fixed || overrun > 0
        let savable = overrun <= tuning.safetyBounds.upperBound
        observe(cost: cost, late: record.isLate() && overran && savable, at: record.presentTime)
    }

    /// Halves the safety's excess over its floor for every half-life since the last frame.
    private mutating func decaySafety(to time: Nanoseconds) {
        defer { lastObserved = time }
        guard let last = lastObserved, time > last else { return }
        let floor = tuning.safetyBounds.lowerBound
        let factor = exp2(-Double(time - last) / Double(tuning.halfLife))
        safety = floor + Nanoseconds((Double(safety - floor) * factor).rounded())
    }
}
