@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL

/// What every real-time benchmark draws to: SDL's offscreen driver, a small
/// hidden window and the software renderer with vsync off, on a thread whose
/// timer slack is at its minimum. Needs no display, so the figures can be
/// taken anywhere; keep it alive while measuring.
final class HeadlessTarget {
    let session: SDLSession
    /// Released in `deinit` before SDL quits, as SDL requires.
    private var window: Window!
    private var drawing: Renderer!

    /// The software renderer to draw and present with.
    var renderer: Renderer { drawing }
    /// The timer slack in effect, or nil where it could not be lowered.
    let timerSlack: Nanoseconds?

    init(title: String) throws {
        timerSlack = TimerSlack.minimize()
        session = try SDLSession(videoDriver: "offscreen")
        window = try Window(title: title, width: 256, height: 256, hidden: true)
        drawing = try Renderer(window: window, software: true, vsync: .off)
    }

    /// The timer slack as the reports print it.
    var slackDescription: String { timerSlack.map { "\($0) ns" } ?? "unchanged" }

    deinit {
        drawing = nil
        window = nil
        session.shutdown()
    }
}
