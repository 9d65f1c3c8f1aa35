@_spi(Programs) import Cadence

extension GameWindow {
    /// The frame rates, in hertz and highest first, that this window's
    /// display shows evenly: what a game's FPS menu offers as caps
    /// (`rateLimit = .cap(rate)`), each a rate every frame of which lasts the
    /// same number of refreshes.
    ///
    /// On a fixed refresh that is the display's rate and each whole division
    /// of it down to 10 Hz (59.94 Hz: 59.94, 29.97, 19.98, 14.985, 11.988).
    /// With variable refresh in effect, or with no vsync, every rate up to the
    /// display's highest is shown evenly, so the list holds that rate alone
    /// and a menu may offer any below it. Read it again after the window
    /// moves to another display or its mode changes.
    public var evenFrameRates: [Double] { Self.evenFrameRates(on: backend.currentTiming()) }

    /// ``evenFrameRates`` on a display with `timing`.
    static func evenFrameRates(on timing: DisplayTiming) -> [Double] {
        switch RateChoices(timing) {
        case .discrete(let rates): rates.map(\.hz)
        case .continuous(let maximum): [maximum.hz]
        }
    }
}
