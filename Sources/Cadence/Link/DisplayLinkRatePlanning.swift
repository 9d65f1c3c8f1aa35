/// The rate a display link plans each frame at, and the cap the frame carries.
extension DisplayLink {
    /// The frame's ``DisplayLinkFrame/cap``: the range's maximum where
    /// `effective` honours it, not with variable refresh in effect.
    func cap(honouredBy effective: EffectiveRate, on timing: DisplayTiming) -> FrameRate? {
        let maximum = preferredFrameRateRange.maximum
        if case .variable = timing { return nil }
        guard maximum > 0, effective.rate.hz <= maximum * (1 + FrameRateSnapper.capTolerance) else { return nil }
        return FrameRate(hz: maximum)
    }

    /// The rate for the preferred range on `timing`, and why: above the
    /// ceiling, the highest achievable rate at or below it.
    func plannedRate(on timing: DisplayTiming) -> (EffectiveRate, RateReason) {
        let wanted = FrameRateSnapper.effectiveRate(for: preferredFrameRateRange, on: timing)
        if let ceiling = rateCeiling, wanted.rate > ceiling.rate {
            let held = FrameRateSnapper.effectiveRate(
                for: FrameRateRange(maximum: ceiling.rate.hz, preferred: ceiling.rate.hz), on: timing)
            if held.rate < wanted.rate { return (held, ceiling.reason) }
        }
        return (wanted, .forRequest(preferredFrameRateRange, running: wanted.rate, on: timing))
    }
}
