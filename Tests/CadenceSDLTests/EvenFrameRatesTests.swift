@_spi(Programs) import Cadence
import Testing
@_spi(Programs) @testable import CadenceSDL

@Suite("The rates a game's FPS menu offers")
struct EvenFrameRatesTests {
    @Test("A fixed 59.94 Hz display: its rate and each whole division of it down to 10 Hz")
    func fixed() {
        let ntsc = FrameRate(numerator: 60_000, denominator: 1_001)
        let rates = GameWindow.evenFrameRates(on: .fixed(VsyncGrid(origin: 0, rate: ntsc)))
        // 60000/1001 Hz divided by 1...5; divided by 6 it is 9.99 Hz, below 10.
        let expected = [59.940_06, 29.970_03, 19.980_02, 14.985_01, 11.988_01]
        #expect(rates.count == expected.count)
        #expect(zip(rates, expected).allSatisfy { abs($0 - $1) < 0.000_01 }, "\(rates)")
    }

    @Test("Variable refresh, or no vsync: the highest rate alone, every rate below it being even")
    func continuous() {
        let vrr = GameWindow.evenFrameRates(on: .variable(minimum: FrameRate(numerator: 48), maximum: FrameRate(numerator: 144)))
        #expect(vrr == [144])
        #expect(GameWindow.evenFrameRates(on: .unsynced(reported: FrameRate(numerator: 75))) == [75])
    }
}
