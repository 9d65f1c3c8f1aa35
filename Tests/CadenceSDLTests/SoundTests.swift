@_spi(Programs) import Cadence
import CSDL2
import Foundation
import Testing
@testable import CadenceSDL

extension SDLSuites {
    /// Sound through SDL's disk audio driver, which writes every buffer the
    /// mixer makes to a file as it makes it: what was played, and when, is
    /// read back from the file and from the moments it grew.
    @Suite("Sound, heard through SDL's disk audio driver")
    struct Sounds {
        /// 48 kHz, 16-bit stereo: what the mixer asks for and the disk driver writes as is.
        static let rate = 48_000, frameBytes = 4

        /// Opens the device on the disk driver writing to a fresh file; runs `body` with the file's path.
        private func onDisk(_ body: (String) throws -> Void) throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-audio-\(getpid()).raw").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            setenv("SDL_AUDIODRIVER", "disk", 1)
            setenv("SDL_DISKAUDIOFILE", path, 1)
            defer { unsetenv("SDL_AUDIODRIVER"); unsetenv("SDL_DISKAUDIOFILE") }
            defer { AudioDevice.close() }
            try #require(Sound.offReason == nil, "the disk driver did not open: \(Sound.offReason ?? "")")
            try body(path)
        }

        /// The file's 16-bit samples, left and right interleaved.
        private func samples(_ path: String) throws -> [Int16] {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
        }

        /// A WAV file of 16-bit stereo PCM at 48 kHz, written from the format's definition.
        static func wav(_ frames: [(Int16, Int16)]) -> Data {
            func le(_ v: UInt32, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * UInt32($0))) & 0xFF) } }
            let pcm = frames.flatMap { le(UInt32(UInt16(bitPattern: $0.0)), 2) + le(UInt32(UInt16(bitPattern: $0.1)), 2) }
            let fmt = le(1, 2) + le(2, 2) + le(48_000, 4) + le(48_000 * 4, 4) + le(4, 2) + le(16, 2)
            let body = Array("WAVEfmt ".utf8) + le(16, 4) + fmt + Array("data".utf8) + le(UInt32(pcm.count), 4) + pcm
            return Data(Array("RIFF".utf8) + le(UInt32(body.count), 4) + body)
        }

        @Test("A WAV file played now reaches the device sample for sample")
        func wavPlaysExactly() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-beep-\(getpid()).wav").path
            let frames = (0..<480).map { i in (Int16(1_000 + i), Int16(-1_000 - i)) }
            try Self.wav(frames).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            try onDisk { output in
                let sound = try Sound(file: path)
                sound.play()
                Thread.sleep(forTimeInterval: 0.3)
                AudioDevice.close()
                let written = try samples(output)
                let start = try #require(written.firstIndex { $0 != 0 })
                #expect(start % 2 == 0, "a frame's left sample first")
                #expect(Array(written[start..<start + 960]) == frames.flatMap { [$0.0, $0.1] })
            }
        }

        @Test("A sound due at a moment is written by the device then: never before it, and not a quarter second after")
        func scheduledAtItsMoment() throws {
            try onDisk { output in
                // A click: one loud frame, then silence.
                let click = Sound(samples: [1] + Array(repeating: 0, count: 99))
                // When the file grew, and to what size, polled every 0.1 ms on a thread of its own.
                let growth = FileGrowth(path: output)
                let clock = MonotonicClock()
                let due = [clock.now + 150_000_000, clock.now + 260_000_000]
                for time in due { click.play(at: time) }
                growth.watch(until: due[1] + 150_000_000)
                AudioDevice.close()
                let written = try samples(output)
                // The clicks' first frames, in order.
                let onsets = stride(from: 0, to: written.count, by: 2).filter { written[$0] > 16_000 }.map { $0 / 2 }
                try #require(onsets.count == 2, "\(onsets)")
                for (onset, time) in zip(onsets, due) {
                    // The write that brought the click's frame, and where in it the frame lies.
                    let write = try #require(growth.writes.first { $0.size > onset * Self.frameBytes })
                    let firstFrame = write.previousSize / Self.frameBytes
                    let heard = write.time + Nanoseconds(onset - firstFrame) * 1_000_000_000 / Nanoseconds(Self.rate)
                    let offset = Double(heard - time) / 1e6
                    // Seen in the file never before it was written: never early. Seen late by how long
                    // stdio holds the driver's writes (its 4 KiB buffer reaches the file four of the mixer's
                    // 1 KiB buffers at a time, as a fifth comes: up to 4 × 5.3 ms) and by however late a
                    // busy machine wakes the watcher: Scripts/bench sound measures the offset itself.
                    #expect(offset >= -0.5 && offset < 250, "heard \(offset) ms after its moment")
                }
            }
        }

        /// 10 frames of 1000 on both channels, scheduled on `scheduler` at `due`,
        /// then mixed into 512-frame buffers handed over at `handedAt`: each buffer's frames' left samples.
        private func mixed(due: Nanoseconds, queuesOneBuffer: Bool, handedAt: [Nanoseconds]) -> [[Int16]] {
            let scheduler = GlassScheduler(rate: Self.rate, format: CSDL2_AudioS16System(), frameBytes: 4,
                                           queuesOneBuffer: queuesOneBuffer)
            let sound = [Int16](repeating: 1_000, count: 20)
            return sound.withUnsafeBytes { bytes in
                scheduler.schedule(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes: bytes.count,
                                   volume: 128, start: due, owner: ObjectIdentifier(self as AnyObject))
                return handedAt.map { now in
                    var buffer = [Int16](repeating: 0, count: 1_024)
                    buffer.withUnsafeMutableBytes {
                        scheduler.mix(into: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes: 2_048, at: now)
                    }
                    return stride(from: 0, to: 1_024, by: 2).map { buffer[$0] }
                }
            }
        }

        /// Where a buffer's frames are the sound's: their indices.
        private func sounding(_ frames: [Int16]) -> [Int] { frames.indices.filter { frames[$0] == 1_000 } }

        @Test("A sound due 5 ms into a buffer starts 240 frames in (5 ms × 48 kHz); on a device that plays a buffer later, 5 ms into the buffer heard then")
        func startsToTheSample() {
            let t: Nanoseconds = 1_000_000_000, bufferTime: Nanoseconds = 512 * 1_000_000_000 / 48_000   // 10.67 ms
            #expect(sounding(mixed(due: t + 5_000_000, queuesOneBuffer: false, handedAt: [t])[0]) == Array(240..<250))
            #expect(sounding(mixed(due: t + bufferTime + 5_000_000, queuesOneBuffer: true, handedAt: [t])[0]) == Array(240..<250))
            // Due 12 ms on: not in the first buffer; 1.33 ms (64 frames) into the next, handed over 10.67 ms later.
            let later = mixed(due: t + 12_000_000, queuesOneBuffer: false, handedAt: [t, t + bufferTime])
            #expect(sounding(later[0]).isEmpty && sounding(later[1]) == Array(64..<74))
            // Due at frame 508: four frames in one buffer, the other six at the start of the next.
            let across = mixed(due: t + 508 * 1_000_000_000 / 48_000, queuesOneBuffer: false, handedAt: [t, t + bufferTime])
            #expect(sounding(across[0]) == Array(508..<512) && sounding(across[1]) == Array(0..<6))
            // Due before the buffer: as soon as it can, from its first frame.
            #expect(sounding(mixed(due: t - 3_000_000, queuesOneBuffer: false, handedAt: [t])[0]) == Array(0..<10))
        }

        @Test("With no audio device sound is off, says why, plays nothing, and a missing file still throws")
        func noDevice() throws {
            setenv("SDL_AUDIODRIVER", "no-such-driver", 1)
            defer { unsetenv("SDL_AUDIODRIVER"); AudioDevice.close() }
            let reason = try #require(Sound.offReason)
            #expect(!reason.isEmpty)
            let beep = Sound(samples: [0.5, -0.5])
            beep.play()
            beep.play(at: MonotonicClock().now)
            #expect(!Music.isPlaying && Music.volume == 0)
            let error = #expect(throws: SDLError.self) { try Sound(file: "/nonexistent/bang.wav") }
            #expect(error?.description.contains("/nonexistent/bang.wav") == true)
        }

        @Test("Music plays from a file, at the volume set, and stops")
        func music() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-tune-\(getpid()).wav").path
            try Self.wav(Array(repeating: (3_000, 3_000), count: 48_000)).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            try onDisk { _ in
                let tune = try Music(file: path)
                Music.volume = 0.5
                #expect(Music.volume == 0.5)
                tune.play()
                #expect(Music.isPlaying)
                Music.stop()
                #expect(!Music.isPlaying)
                #expect(throws: SDLError.self) { try Music(file: "/nonexistent/tune.ogg") }
            }
        }
    }
}

/// When a file grew, polled on a thread of its own: the moments the disk
/// audio driver wrote each buffer.
final class FileGrowth: @unchecked Sendable {
    struct Write { let time: Nanoseconds; let size: Int; let previousSize: Int }
    private let path: String
    private(set) var writes: [Write] = []

    init(path: String) { self.path = path }

    /// Polls every 0.1 ms until `deadline` on the monotonic clock, on another thread, and waits for it.
    func watch(until deadline: Nanoseconds) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            // Woken first where the system allows it, so that a write is seen when it happens.
            var priority = sched_param(sched_priority: 10)
            _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &priority)
            let clock = MonotonicClock()
            var last = 0
            while clock.now < deadline {
                var info = stat()
                if stat(path, &info) == 0, Int(info.st_size) != last {
                    writes.append(Write(time: clock.now, size: Int(info.st_size), previousSize: last))
                    last = Int(info.st_size)
                }
                usleep(100)
            }
            done.signal()
        }
        done.wait()
    }
}
