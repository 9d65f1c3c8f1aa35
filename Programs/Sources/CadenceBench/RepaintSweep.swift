@_spi(Programs) import Cadence
import ArgumentParser
@_spi(Programs) import CadenceSDL
import Foundation

/// Which frame intervals a compositor can show at all, measured on its own
/// clock: natively on Wayland, every frame is committed a fixed delay after
/// the compositor reported the frame before it on the glass
/// (`wp_presentation`), and the intervals between the frames it shows are
/// what that delay gets. Swept over delays, the table says where a frame
/// committed at a given moment lands, which no pacing can change.
///
/// A compositor on a real vblank would show every delay up to about a refresh
/// at one refresh, and the next band at two. Mutter 43's headless virtual monitor,
/// which repaints on demand, has a band of intervals it never shows (a frame
/// committed 24 to 35 ms after the last is shown 36.4 ms after it): no cap of
/// 30 runs evenly there.
struct RepaintSweep {
    /// The delays after the previous frame's glass time at which frames are committed.
    let delays: [Nanoseconds]
    /// Frames measured per delay, after ``warmup`` more.
    let frames: Int
    /// Frames left out at the start of each delay, while the compositor settles into it.
    static let warmup = 10
    /// How long to wait for one frame's report before the frame counts as unreported.
    static let reportWait: Nanoseconds = 200_000_000

    /// One delay's figures, in nanoseconds.
    struct Row {
        let delay: Nanoseconds
        /// Intervals between successive frames on the glass, sorted.
        let intervals: [Nanoseconds]
        /// Each frame's glass time less its commit (the moment present returned), sorted.
        let commitToGlass: [Nanoseconds]
        /// Frames the compositor discarded or never reported.
        let unreported: Int
    }

    func run() throws {
        let session: SDLSession
        do {
            session = try VideoChoice.wayland.openSession()
        } catch {
            throw BenchError("no native Wayland session (\(error))")
        }
        defer { session.shutdown() }
        let progress = Progress()
        nonisolated(unsafe) let stuck = progress
        // Watched from the moment SDL's video is up: SDL may never return from a window's start-up on a lost display.
        let watchdog = SweepStop.watchdog(DisplayConnection(session: session)) { stuck.row.map(Self.line) }
        let window = try watchdog.guarding { try Window(title: "cadence-bench repaint-sweep", width: 640, height: 360) }
        let renderer = try watchdog.guarding { try Renderer(window: window) }
        let connection = DisplayConnection(window: window)
        watchdog.watch(connection)
        renderer.watchdog = watchdog
        guard let presentation = WaylandPresentationClock(window: window) else {
            throw BenchError("the compositor offers no wp_presentation on CLOCK_MONOTONIC: nothing to measure")
        }
        let clock = MonotonicClock()
        let sleeper = PreciseSleeper(clock: clock)
        print("Frames committed a fixed delay after the compositor showed the one before, \(frames) a delay "
              + "(glass times: the compositor's wp_presentation feedback)")
        print("delay      FPS    interval p5   p50     p95     commit→glass p50  unreported")
        var drawn = 0
        for delay in delays {
            var lastGlass: Nanoseconds?
            progress.start(delay)
            for index in 0..<(Self.warmup + frames) {
                _ = EventPump.poll()
                if SweepStop.requested || connection.lost != nil || presentation.isBroken {
                    if let row = progress.row { print(Self.line(row)) }
                    if !SweepStop.requested { throw ExitCode(SweepStop.report("\(connection.lost ?? "the compositor went away"): sweep ended")) }
                    return
                }
                drawn += 1
                renderer.clear(Color(UInt8(drawn * 7 & 255), UInt8(drawn * 13 & 255), 90))
                if let lastGlass { _ = sleeper.wait(until: lastGlass + delay) }
                let ticket = presentation.willPresent()
                renderer.present()
                let committed = clock.now
                let glass = ticket.flatMap { waitForReport($0, from: presentation, clock: clock) }
                guard index >= Self.warmup else {
                    lastGlass = glass ?? lastGlass
                    continue
                }
                guard let glass else {
                    progress.unreported += 1
                    continue
                }
                if let lastGlass { progress.intervals.append(glass - lastGlass) }
                progress.commitToGlass.append(glass - committed)
                lastGlass = glass
            }
            if let row = progress.row { print(Self.line(row)) }
            progress.start(nil)
        }
    }

    /// The delay being measured and what it got so far.
    private final class Progress {
        var delay: Nanoseconds?
        var intervals: [Nanoseconds] = [], commitToGlass: [Nanoseconds] = [], unreported = 0

        func start(_ delay: Nanoseconds?) {
            self.delay = delay
            intervals = []
            commitToGlass = []
            unreported = 0
        }

        /// The row so far; nil between delays.
        var row: Row? {
            delay.map { Row(delay: $0, intervals: intervals.sorted(), commitToGlass: commitToGlass.sorted(), unreported: unreported) }
        }
    }

    /// The glass time of the frame with `ticket`, waiting for its report; nil
    /// when the compositor discarded it or said nothing in time.
    private func waitForReport(_ ticket: Int, from presentation: WaylandPresentationClock,
                               clock: MonotonicClock) -> Nanoseconds? {
        let deadline = clock.now + Self.reportWait
        while clock.now < deadline {
            presentation.poll()
            if let report = presentation.takeReports().first(where: { $0.ticket == ticket }) { return report.glassTime }
            EventPump.wait(timeout: 500_000)
        }
        return nil
    }

    /// One row of the table.
    static func line(_ row: Row) -> String {
        func ms(_ ns: Nanoseconds?) -> String { ns.map { String(format: "%7.2f", Double($0) / 1e6) } ?? "      –" }
        let span = row.intervals.reduce(0, +)
        let fps = span > 0 ? String(format: "%6.2f", Double(row.intervals.count) / (Double(span) / 1e9)) : "     –"
        return "\(ms(row.delay)) ms \(fps)  \(ms(row.intervals.nearestRank(0.05))) \(ms(row.intervals.nearestRank(0.5))) "
            + "\(ms(row.intervals.nearestRank(0.95)))  \(ms(row.commitToGlass.nearestRank(0.5)))           \(row.unreported)"
    }
}
