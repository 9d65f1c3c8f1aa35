@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// When a sound played for a frame is heard: a click every `every` frames,
/// each played with `Sound.play(when:)`, in a real window, through SDL's
/// disk audio driver, which writes each buffer the mixer makes to a file.
/// A thread of its own watches the file grow; each click's first sample is
/// found in the file, and the moment its buffer was handed to the driver
/// gives the moment it is heard, against its frame's glass time.
///
/// The driver writes through stdio, whose 4 KiB buffer reaches the file
/// only when a write does not fit: the file grows four 1 KiB buffers at a
/// time, as the fifth is handed over. Buffer `m` is handed over when the
/// file grows to `m` buffers; those between are interpolated.
@MainActor
struct SoundBench {
    let seconds: Int
    let every: Int

    func run() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-bench-audio-\(getpid()).raw").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        setenv("SDL_AUDIODRIVER", "disk", 1)
        setenv("SDL_DISKAUDIOFILE", file, 1)
        let window = try GameWindow(title: "cadence-bench sound", width: 640, height: 360)
        guard Sound.offReason == nil, let device = Sound.device, device.driver == "disk", device.channels == 2 else {
            window.shutdown()
            throw SoundBenchError(message: "the disk audio driver did not open: \(Sound.offReason ?? "another driver")")
        }
        let watcher = FileWatcher(path: file)
        watcher.start()
        let clicks = ClickTrack(window: window, every: every, frames: seconds * 60)
        window.run(clicks)
        if BenchStop.requested { print(BenchStop.notice.replacingOccurrences(of: "rounds completed", with: "clicks played")) }
        let glassWords = window.statistics.runSummary.glassSourceWords
        window.shutdown()   // closes the device: its last buffers reach the file at once
        watcher.stop()
        let bufferBytes = device.bufferFrames * 4
        let samples = try Data(contentsOf: URL(fileURLWithPath: file))
        let onsets = Self.onsets(samples)
        let handedOver = Self.handOverTimes(watcher.growth, bufferBytes: bufferBytes)
        var toGlass: [Double] = [], toTarget: [Double] = [], lateLeads: [Double] = []
        // The last click may sit in what the closing flush wrote: judged only where a later write was seen;
        // and only where the writes around it came evenly (a watcher woken late would time it late).
        for (onset, click) in zip(onsets, clicks.played) {
            let buffer = onset * 4 / bufferBytes
            guard let glass = clicks.glass[click.frame], let start = handedOver[buffer].flatMap({ $0.even ? $0.time : nil })
            else { continue }
            let heard = start + Nanoseconds(onset - buffer * device.bufferFrames) * 1_000_000_000 / Nanoseconds(device.rate)
            toGlass.append(Double(heard - glass) / 1e6)
            toTarget.append(Double(heard - click.target) / 1e6)
            if heard - click.target > 1_000_000 { lateLeads.append(Double(click.lead) / 1e6) }
        }
        print("sound: \(clicks.played.count) clicks played, \(onsets.count) found in the driver's file, \(toGlass.count) timed"
              + " (the writes around them even);"
              + " disk driver, \(device.bufferFrames) frames a buffer at \(device.rate) Hz"
              + " (\(String(format: "%.1f", Double(device.bufferFrames) * 1000 / Double(device.rate))) ms)")
        print("  heard − its frame's glass time: \(Self.summary(toGlass))")
        print("  heard − its frame's target:     \(Self.summary(toTarget))")
        let leads = lateLeads.isEmpty ? "" : " (played \(Self.summary(lateLeads)) before it)"
        print("  heard over 1 ms after its target: \(lateLeads.count)\(leads); over 1 ms before: \(toTarget.filter { $0 < -1 }.count)")
        print("  every click played \(Self.summary(clicks.played.map { Double($0.lead) / 1e6 })) before its target")
        print("  glass times: \(glassWords); a frame that missed its target was heard before it was seen")
    }

    /// The first frame of each click: a left sample over half scale after one below it.
    static func onsets(_ data: Data) -> [Int] {
        let frames = data.count / 4
        var result: [Int] = [], loud = false
        for frame in 0..<frames {
            let left = Int16(bitPattern: UInt16(data[frame * 4]) | UInt16(data[frame * 4 + 1]) << 8)
            if left > 16_000, !loud { result.append(frame) }
            loud = left > 16_000
        }
        return result
    }

    /// When each buffer was handed to the driver: known where the file grew
    /// to a whole number of buffers, interpolated between; `even` where the
    /// growth before and after came at the run's usual pace a buffer (within
    /// 10% of the median), so that interpolating holds.
    static func handOverTimes(_ growth: [(time: Nanoseconds, size: Int)], bufferBytes: Int)
        -> [Int: (time: Nanoseconds, even: Bool)] {
        let known = growth.filter { $0.size % bufferBytes == 0 }.map { (buffer: $0.size / bufferBytes, time: $0.time) }
        let steps = zip(known, known.dropFirst()).filter { $1.buffer > $0.buffer }
        let paces = steps.map { Double($1.time - $0.time) / Double($1.buffer - $0.buffer) }.sorted()
        let usual = paces.isEmpty ? 0 : paces[paces.count / 2]
        var times: [Int: (time: Nanoseconds, even: Bool)] = [:]
        for (a, b) in steps {
            let pace = Double(b.time - a.time) / Double(b.buffer - a.buffer)
            for buffer in a.buffer..<b.buffer {
                times[buffer] = (a.time + (b.time - a.time) * Nanoseconds(buffer - a.buffer) / Nanoseconds(b.buffer - a.buffer),
                                 abs(pace - usual) <= 0.1 * usual)
            }
        }
        return times
    }

    /// Median, the 10th and 90th percentiles and the extremes, in ms.
    static func summary(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "nothing timed" }
        let sorted = values.sorted()
        func at(_ q: Double) -> String { String(format: "%.2f", sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))]) }
        return "median \(at(0.5)) ms, p10 \(at(0.1)), p90 \(at(0.9)), min \(String(format: "%.2f", sorted[0])), max \(String(format: "%.2f", sorted[sorted.count - 1]))"
    }
}

struct SoundBenchError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The game the bench runs: a frame a little different each time, and a
/// click for every `every`th frame, played for that frame's glass time.
final class ClickTrack: FrameLoopClient {
    let window: GameWindow
    let every: Int, frames: Int
    let click = Sound(samples: [1] + Array(repeating: 0, count: 239))
    /// The clicks played: their frames, targets, and how long before its target each was played.
    private(set) var played: [(frame: Int, target: Nanoseconds, lead: Nanoseconds)] = []
    /// Each frame's glass time, as the loop recorded it.
    private(set) var glass: [Int: Nanoseconds] = [:]

    init(window: GameWindow, every: Int, frames: Int) {
        (self.window, self.every, self.frames) = (window, every, frames)
    }

    func prepareFrame(_ loop: FrameLoop) -> Bool {
        _ = window.pollEvents()
        return glass.count < frames && !BenchStop.requested
    }

    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop) {
        window.renderer.clear(frame.index % every == 0 ? .white : .black)
        // None in the last half second: the device's closing flush is no buffer's moment.
        if frame.index % every == 0, frame.index < frames - 30 {
            let now = loop.clock.now
            click.play(when: frame)
            played.append((frame.index, frame.targetTimestampNanoseconds, frame.targetTimestampNanoseconds - now))
        }
    }

    func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {
        glass[record.frame] = record.glassTime
    }
}

/// A file's size over time, polled every 0.1 ms on a thread of its own.
final class FileWatcher: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var running = true
    private var samples: [(time: Nanoseconds, size: Int)] = []
    private let finished = DispatchSemaphore(value: 0)

    init(path: String) { self.path = path }

    /// Each change of size and when it was seen.
    var growth: [(time: Nanoseconds, size: Int)] { lock.withLock { samples } }

    func start() {
        Thread.detachNewThread { [self] in
            // Woken first where the system allows it, so that a write is seen when it happens.
            var priority = sched_param(sched_priority: 10)
            _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &priority)
            let clock = MonotonicClock()
            var last = -1
            while lock.withLock({ running }) {
                var info = stat()
                if stat(path, &info) == 0, Int(info.st_size) != last {
                    last = Int(info.st_size)
                    let seen = (clock.now, last)
                    lock.withLock { samples.append(seen) }
                }
                usleep(100)
            }
            finished.signal()
        }
    }

    /// Stops polling and waits for the thread to end.
    func stop() {
        lock.withLock { running = false }
        finished.wait()
    }
}
