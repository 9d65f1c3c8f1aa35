@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// Issue 7's long real-time run: the game's own loop (display link, frame
/// loop, SDL backend, precise sleeper) headless at 60 FPS for ten minutes,
/// judged minute by minute against the first: pacing must not degrade and
/// memory must stay flat.
@MainActor
struct SoakBench {
    /// How long to run, in minutes.
    let minutes: Int
    /// The rate to pace at.
    let fps: Int

    /// How much worse than the first minute a later p99 may be before it
    /// counts as degraded: scheduling noise on a shared machine, not drift.
    static let tolerance: Nanoseconds = 50_000

    /// Runs and prints one row a minute; false when pacing degraded or memory grew.
    func run() throws -> Bool {
        let target = try HeadlessTarget(title: "cadence-bench soak")
        let renderer = target.renderer
        let clock = MonotonicClock()
        let sleeper = PreciseSleeper(clock: clock, spin: SpinWait.pause)
        let backend = SDLBackend(renderer: renderer, clock: clock, refreshHz: 0) { _ = sleeper.wait(until: $0) }
        let link = DisplayLink(preferred: FrameRateRange(fps: Double(fps)), jitterTolerance: SDLBackend.jitterTolerance)
        let client = SoakClient(renderer: renderer, fps: fps, minutes: minutes, clock: clock)
        emit("""
            Soak: \(minutes) min headless at \(fps) FPS through the game's own loop (SDL \(target.session.videoDriver), \
            \(renderer.backend) renderer, vsync off); timer slack \(target.slackDescription)
            error = |present interval − 1/fps|; a later minute passes when its p99 ≤ the first minute's + \
            \(TimeUnit.milliseconds(Self.tolerance)) ms

              min   frames   p50 error   p99 error   max error     RSS
            """)
        FrameLoop(link: link, backend: backend).run(client)
        if BenchStop.requested {
            emit(BenchStop.notice.replacingOccurrences(of: "rounds completed", with: "minutes, the last one cut short"))
            client.closePartialMinute()
            return true
        }
        guard let first = client.minutes.first, let last = client.minutes.last else { return false }
        let worst = client.minutes.dropFirst().map(\.p99).max() ?? first.p99
        let paced = worst <= first.p99 + Self.tolerance
        let flat = last.residentBytes <= first.residentBytes + 4 << 20
        emit("""
            first minute p99 \(ms(first.p99)); worst later minute p99 \(ms(worst)): \(paced ? "no worse" : "DEGRADED")
            resident memory \(first.residentBytes >> 20) MiB after the first minute, \(last.residentBytes >> 20) MiB \
            at the end: \(flat ? "flat" : "GREW")
            """)
        return paced && flat
    }

    private func ms(_ ns: Nanoseconds) -> String { String(format: "%.3f ms", TimeUnit.milliseconds(ns)) }
}

/// One minute of the soak.
struct SoakMinute {
    let frames: Int
    let p50: Nanoseconds
    let p99: Nanoseconds
    let max: Nanoseconds
    let residentBytes: Int
}

/// The soak's game: a trivial scene, its present times kept one minute at a
/// time and summarised when the minute ends.
final class SoakClient: FrameLoopClient {
    private let renderer: Renderer
    private let ideal: Double
    private let end: Nanoseconds
    private let clock: MonotonicClock
    private var minuteEnd: Nanoseconds
    private var errors: [Nanoseconds] = []
    private var lastPresent: Nanoseconds?
    private(set) var minutes: [SoakMinute] = []

    init(renderer: Renderer, fps: Int, minutes: Int, clock: MonotonicClock) {
        self.renderer = renderer
        self.clock = clock
        ideal = 1e9 / Double(fps)
        let start = clock.now
        end = start + Nanoseconds(minutes) * 60 * TimeUnit.nanosecondsPerSecond
        minuteEnd = start + 60 * TimeUnit.nanosecondsPerSecond
        errors.reserveCapacity(fps * 60)
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool { clock.now < end && !BenchStop.requested }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        renderer.clear(Color(18, 20, 28))
        let x = Int(frame.targetTimestamp * 100) % 200
        renderer.fill(Rect(x: x, y: 100, width: 56, height: 56), Color(255, 196, 60))
        renderer.flush()
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        if let last = lastPresent {
            errors.append(Nanoseconds(abs(Double(record.presentTime - last) - ideal).rounded()))
        }
        lastPresent = record.presentTime
        if record.presentTime >= minuteEnd {
            closeMinute()
            minuteEnd += 60 * TimeUnit.nanosecondsPerSecond
        }
    }

    func idle(_ loop: FrameLoop) -> Bool { false }

    /// Prints the minute in progress as a last, shorter row (a soak stopped early).
    func closePartialMinute() {
        if !errors.isEmpty { closeMinute() }
    }

    private func closeMinute() {
        errors.sort()
        func quantile(_ q: Double) -> Nanoseconds { errors.nearestRank(q) ?? 0 }
        let minute = SoakMinute(frames: errors.count, p50: quantile(0.5), p99: quantile(0.99), max: errors.last ?? 0,
                                residentBytes: Self.residentBytes())
        minutes.append(minute)
        func ms(_ ns: Nanoseconds) -> String { String(format: "%7.3f ms", TimeUnit.milliseconds(ns)) }
        emit(String(format: "  %4d  %7d", minutes.count, minute.frames)
             + "  \(ms(minute.p50))  \(ms(minute.p99))  \(ms(minute.max))  \(minute.residentBytes >> 20) MiB")
        errors.removeAll(keepingCapacity: true)
    }

    /// The process's resident memory, from `/proc/self/statm` (0 where unreadable).
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Writes a line to standard output at once, unbuffered, so a soak's rows
/// appear as each minute ends even when the output goes to a file.
func emit(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
