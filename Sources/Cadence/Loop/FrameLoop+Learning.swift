/// What the loop learns from its frames, at two moments; both feed the one
/// ceiling on the link's rate (`planRateCeiling(on:at:)`): what the game's
/// work costs, once present returns, and what the present path reached, once
/// the frame's glass time is final.
extension FrameLoop {
    /// The first moment the loop learns: right after the present, when the
    /// frame's work and cost (`FrameRecord.cost(on:)`) are known. The next
    /// frame's plan needs them at once, so this cannot wait for the glass. It
    /// feeds the work's share of the ceiling (`WorkRateCeiling`, the even
    /// rate the work meets) and the cost predictor behind ``FrameLatency/low``.
    func learnAfterPresent(_ record: FrameRecord, on timing: DisplayTiming) {
        workCeiling.observe(record, on: timing)
        costPredictor.observe(record, on: timing)
    }

    /// The second moment: once the frame's glass time is final (the
    /// platform's report, a frame or two after the present), whether the
    /// present path kept the rate it was asked for (`PresentThroughput`),
    /// the present path's share of the ceiling; and how much later than its
    /// slot the path shows a frame (`PathLatency`), which moves the link's
    /// targets rather than its rate; first, whether a frame is queued in the
    /// path (`PresentQueue`), which moves the next target once, and a frame
    /// late by that queue teaches neither. A glass time only estimated would
    /// teach none of them, so this waits for the report.
    func learnAfterGlass(_ record: FrameRecord) {
        guard !presentQueue.observe(record) else { return }
        presentThroughput.observe(record)
        if !backend.gridIsRepaintTimer { pathLatency.observe(record) }
    }

    /// Plans the one ceiling on the next frame's rate, where the two moments
    /// meet: the lower of what the present path sustains, as learned up to
    /// now (or nothing, for a frame that tries the asked rate again), and
    /// what the game's work allows under the request.
    func planRateCeiling(on timing: DisplayTiming, at now: Nanoseconds) -> RateCeiling? {
        presentThroughput.follow(timing)
        presentThroughput.plan(at: now)
        let requested = FrameRateSnapper.effectiveRate(for: link.preferredFrameRateRange, on: timing).rate
        workCeiling.plan(under: requested, on: timing)
        return RateCeiling.lower(presentThroughput.ceiling, workCeiling.ceiling)
    }
}
