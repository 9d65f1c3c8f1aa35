@_spi(Programs) import Cadence

extension GameWindow {
    /// The most of a core the pacing may spend spinning, from 0 to 1
    /// (default 0.03, 3%): the price of presenting within microseconds of
    /// each target.
    ///
    /// A paced frame's wait sleeps until shortly before its deadline and
    /// spins the rest, because a sleep alone wakes tens of microseconds late
    /// (hundreds on a busy machine). The spin covers what the recent wake-ups
    /// needed and never more than this share of the frame's interval: at
    /// 144 FPS, 3% is at most 208 µs a frame. Set 0 for a plain sleep (the
    /// least CPU, frames up to a wake-up's error late); raise it for a
    /// machine whose wake-ups are worse. The statistics panel's `pacing`
    /// figure and the run summary show what it costs.
    public var pacingSpinBudget: Double {
        get { sleeper.spinBudget }
        set { sleeper.spinBudget = newValue }
    }
}
