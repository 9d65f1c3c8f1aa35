import Cadence
import CSDL2

/// Starts sounds at a moment on the monotonic clock (a frame's glass time)
/// to the sample, in the mixer's own thread: SDL_mixer calls ``mix(into:bytes:at:)``
/// with each buffer it has mixed, just before the driver takes it.
///
/// A buffer mixed now is heard from now on (a driver that writes it at
/// once) or a buffer later (a sound card's driver, which plays it after the
/// one playing: the buffer's length over the rate, from SDL's audio spec).
/// A sound due at T starts in the buffer heard over T, that many samples in,
/// so it is heard at T however the game's frames and the mixer's buffers
/// fall. One due before the buffer being mixed starts at the buffer's start:
/// as early as it still can.
final class GlassScheduler: @unchecked Sendable {
    /// A sound playing or waiting for its moment.
    private struct Play {
        /// The sound's identity, to stop its plays when it goes.
        let owner: ObjectIdentifier
        let samples: UnsafePointer<UInt8>
        let bytes: Int
        let volume: Int32
        /// When its first sample is to be heard; nil once started.
        var start: Nanoseconds?
        /// Bytes of it mixed so far.
        var position = 0
    }

    private let rate: Int
    private let format: UInt16
    private let frameBytes: Int
    private let queuesOneBuffer: Bool
    /// Guards `plays`, shared by the game's thread and the mixer's.
    private let lock: OpaquePointer
    private var plays: [Play] = []

    init(rate: Int, format: UInt16, frameBytes: Int, queuesOneBuffer: Bool) {
        self.rate = rate; self.format = format; self.frameBytes = frameBytes; self.queuesOneBuffer = queuesOneBuffer
        lock = SDL_CreateMutex()
    }

    deinit { SDL_DestroyMutex(lock) }

    /// Plays `bytes` of samples in the mixer's format so that the first is heard at `start`.
    func schedule(_ samples: UnsafePointer<UInt8>, bytes: Int, volume: Int32, start: Nanoseconds, owner: ObjectIdentifier) {
        SDL_LockMutex(lock)
        plays.append(Play(owner: owner, samples: samples, bytes: bytes, volume: volume, start: start))
        SDL_UnlockMutex(lock)
    }

    /// Stops every play of `owner`'s samples (before they are freed).
    func cancel(_ owner: ObjectIdentifier) {
        SDL_LockMutex(lock)
        plays.removeAll { $0.owner == owner }
        SDL_UnlockMutex(lock)
    }

    /// Mixes the plays due in this buffer into it, the buffer being handed
    /// to the driver `now` on the monotonic clock (the mixer's thread).
    func mix(into stream: UnsafeMutablePointer<UInt8>, bytes: Int, at now: Nanoseconds) {
        let frames = bytes / frameBytes
        let heard = now + (queuesOneBuffer ? Nanoseconds(frames) * 1_000_000_000 / Nanoseconds(rate) : 0)
        SDL_LockMutex(lock)
        defer { SDL_UnlockMutex(lock) }
        for i in plays.indices {
            var first = 0
            if let start = plays[i].start {
                // The frame of this buffer heard at `start`, rounded to the nearest.
                let ahead = start - heard
                let frame = (ahead * Nanoseconds(rate) + (ahead >= 0 ? 500_000_000 : -500_000_000)) / 1_000_000_000
                guard frame < frames else { continue }
                first = max(0, Int(frame))
                plays[i].start = nil
            }
            let count = min(plays[i].bytes - plays[i].position, (frames - first) * frameBytes)
            SDL_MixAudioFormat(stream + first * frameBytes, plays[i].samples + plays[i].position, format,
                               UInt32(count), plays[i].volume)
            plays[i].position += count
        }
        plays.removeAll { $0.start == nil && $0.position >= $0.bytes }
    }
}
