@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// Runs one contender for a round in the shared window.
@MainActor
final class RoundRunner {
    let game: GameWindow
    let cap: Int
    var renderer: Renderer { game.renderer }
    var clock: MonotonicClock { game.clock }
    private var drawn = 0

    init(game: GameWindow, cap: Int) {
        self.game = game
        self.cap = cap
    }

    /// A warm-up, then `seconds` of measured frames.
    func round(_ contender: CompositorBench.Contender, seconds: Double) -> [CompositorBench.Sample] {
        let measured = clock.now + CompositorBench.warmup
        let end = measured + TimeUnit.nanoseconds(seconds: seconds)
        var samples: [CompositorBench.Sample] = []
        switch contender {
        case .plain:
            while clock.now < end && !BenchStop.requested {
                let start = clock.now
                draw()
                renderer.present()
                samples.append(.init(start: start, returned: clock.now))
            }
        case .sdlDelay:
            let interval = 1_000_000_000 / Nanoseconds(cap)
            while clock.now < end && !BenchStop.requested {
                let start = clock.now
                draw()
                renderer.present()
                samples.append(.init(start: start, returned: clock.now))
                let elapsed = clock.now - start
                if elapsed < interval { SDLTimer.delay(milliseconds: UInt32((interval - elapsed) / 1_000_000)) }
            }
        case .cadence, .cadenceCap:
            game.rateLimit = contender == .cadence ? .displayRate : .cap(Double(cap))
            let client = LoopClient(until: end) { [unowned self] in draw() }
            game.run(client)
            samples = client.samples
        }
        return samples.filter { $0.start >= measured }
    }

    /// The trivial scene: a square sliding across a cleared background; input is drained as a game would.
    private func draw() {
        _ = EventPump.poll()
        renderer.clear(Color(16, 16, 24))
        renderer.fill(Rect(x: (drawn * 3) % 608, y: 164, width: 32, height: 32), Color(240, 180, 40))
        renderer.flush()
        drawn += 1
    }
}

/// The Cadence contender's game: draws, and keeps each frame's start and present return.
private final class LoopClient: FrameLoopClient {
    let end: Nanoseconds
    let draw: () -> Void
    private(set) var samples: [CompositorBench.Sample] = []

    init(until end: Nanoseconds, draw: @escaping () -> Void) {
        self.end = end
        self.draw = draw
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool { loop.clock.now < end && !BenchStop.requested }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        draw()
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        samples.append(.init(start: record.callbackStart, returned: record.presentTime,
                             glass: record.glassSource == .inferred ? nil : record.glassTime))
    }

    func idle(_ loop: FrameLoop) -> Bool { false }
}

/// A benchmark that cannot run where it was started.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
