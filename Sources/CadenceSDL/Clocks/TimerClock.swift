@_spi(Programs) import Cadence

/// No vblank to pace on: vsync off, where a frame shows when presented, or
/// variable refresh in effect, where the panel refreshes when a frame arrives.
/// The presenter's timer paces the frames. Where the compositor reports each
/// frame's time on the glass (native Wayland), the reports are still asked
/// for and read, once a frame after the present.
final class TimerClock: DisplayClock {
    let timing: DisplayTiming
    let note: TimingNote?
    let source = DisplayClockSource.timer
    private let reports: WaylandPresentationClock?

    /// With vsync on, `variable` is the range in effect; with vsync off the
    /// display's `reported` rate, `uncapped` when the loop turned vsync off.
    /// `reports`: the compositor's feedback, where there is one.
    init(vsync: Bool, variable: (minimum: FrameRate, maximum: FrameRate)?, reported: FrameRate?, uncapped: Bool,
         reports: WaylandPresentationClock? = nil) {
        if vsync, let variable {
            timing = .variable(minimum: variable.minimum, maximum: variable.maximum)
            note = nil
        } else {
            timing = .unsynced(reported: reported)
            note = uncapped ? .uncapped : .vsyncOff
        }
        self.reports = reports
    }

    func willPresent() -> Int? { reports?.willPresent() }

    func presented(submittedAt submitted: Nanoseconds, returnedAt returned: Nanoseconds) -> GlassEstimate {
        reports?.poll()
        return .inferred(returned)
    }

    func takeReports() -> [GlassFeedback] { reports?.takeReports() ?? [] }
}
