extension FrameLoop {
    /// With ``FrameLatency/low``: waits until `frame`'s callback should start,
    /// its target less the predictor's lead, so the callback reads input as
    /// late as the frame can afford. Before the first frame, with nothing
    /// learned, it starts at once.
    ///
    /// With variable refresh below the panel's minimum, repeats of the previous
    /// frame fall due while the loop waits here; they are presented on time
    /// during the wait (and the last flip noted, so the presenter's own repeat
    /// loop after the callback plans from it). Repeats still due after the
    /// callback starts are left to that loop.
    func waitForJustInTimeStart(of frame: DisplayLinkFrame) {
        guard let lead = costPredictor.lead else { return }
        let startAt = frame.targetTimestampNanoseconds - lead
        let plan = PresentPlan(for: frame, on: frame.timing, workEndedAt: backend.clock.now, lastFlip: lastShown)
        if let compensation = plan.compensation, var flip = lastShown {
            while let time = compensation.nextRepeat(after: flip, now: backend.clock.now, before: plan.submitAt),
                  time <= startAt {
                backend.wait(until: time)
                flip = backend.present(isRepeat: true).shownAt
            }
            lastShown = flip
        }
        backend.wait(until: startAt)
    }
}
