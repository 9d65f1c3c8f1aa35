import Testing
@_spi(Programs) @testable import Cadence

/// Behind a compositor that holds each commit to the moment it carries
/// (Wayland's commit-timing, with fifo), the presenter does not wait for the
/// moment: it hands the frame over with it as soon as the frame before is
/// due, and the compositor shows it on its vblank. In virtual time; the truth
/// is the simulated display's own flips.
@MainActor
@Suite("Presents held by the compositor")
struct HeldPresentTests {
    @Test("A cap of 30 and a request of 45 on 60 Hz: 30.00 FPS, every frame on its target's vblank, none before, none waited for", arguments: [30.0, 45.0])
    func heldToTheirMoments(fps: Double) {
        let display = SimulatedDisplay(panel: .fixed(FrameRate(numerator: 60)))
        var flips: [Nanoseconds] = []
        display.onFlip = { flips.append($0.at) }
        let backend = SimulatedBackend(display: display, feedbackDelay: 25 * ms)
        backend.holdsPresentsToMoments = true
        let game = HeldGame(frames: 150)
        // A cap: never above it (the sample's --fps).
        FrameLoop(link: DisplayLink(preferred: FrameRateRange(maximum: fps, preferred: fps)), backend: backend).run(game)
        let period = FrameRate(numerator: 60).period   // rounded down: vblanks are 1 ns apart from it
        // 45 is not an even rate on 60 Hz: the highest below it is 30, every other vblank.
        #expect(game.records.count == 150)
        for record in game.records {
            #expect(flips[record.frame] == record.targetTimestamp, "frame \(record.frame): \(flips[record.frame] - record.targetTimestamp) ns after its target")
            let phase = Double(record.targetTimestamp) * 60 / 1e9
            #expect(abs(phase - phase.rounded()) * Double(period) <= 1, "on a vblank")
        }
        for i in 1..<flips.count { #expect(abs(flips[i] - flips[i - 1] - 2 * period) <= 2, "30.00 FPS") }
        // Handed over a refresh or more before its vblank: the loop waited
        // only for the frame before to be due, never for the frame's own moment.
        for record in game.records.dropFirst() {
            #expect(record.targetTimestamp - record.presentSubmit >= period - 1, "frame \(record.frame) handed over \(record.targetTimestamp - record.presentSubmit) ns before its vblank")
        }
    }
}

/// Runs `frames` frames of 2 ms work and keeps every final record.
@MainActor
private final class HeldGame: FrameLoopClient {
    var records: [FrameRecord] = []
    private let frameLimit: Int
    private var ran = 0

    init(frames: Int) { frameLimit = frames }

    func prepareFrame(_ loop: FrameLoop) -> Bool { ran < frameLimit }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        ran += 1
        loop.doWork(2 * ms)
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        records.append(record)
    }
}
