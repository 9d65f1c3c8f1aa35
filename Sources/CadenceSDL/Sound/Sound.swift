import Cadence
import CSDL2

/// A sound effect, decoded into memory (SDL_mixer: WAV, OGG, FLAC, MP3),
/// played at once or when a frame reaches the glass.
///
/// ```swift
/// let bang = try Sound(file: "Assets/bang.wav")
/// bang.play(when: frame)   // heard as the frame that shows the shot is seen
/// ```
///
/// The first sound (or ``Music``) opens the audio device. Where there is
/// none (a CI machine, no sound server) sound is off: one line on standard
/// error says why, ``offReason`` holds it, and sounds play nothing; the game
/// runs on.
public final class Sound {
    /// The decoded samples in the mixer's format; nil with sound off.
    private let chunk: UnsafeMutablePointer<Mix_Chunk>?

    /// How loud, from 0 (silent) to 1 (as recorded, the default).
    public var volume: Double = 1 {
        didSet { if let chunk { Mix_VolumeChunk(chunk, Self.mixerVolume(volume)) } }
    }

    /// Why sound is off (no audio device, or SDL's reason), nil while it
    /// works; asking opens the device if nothing has yet.
    public static var offReason: String? {
        _ = AudioDevice.open()
        return AudioDevice.offReason
    }

    /// Loads a sound file. Throws with the path in the message when it is
    /// missing or not a sound SDL_mixer reads; with sound off, only a missing
    /// file throws.
    public init(file path: String) throws {
        guard AudioDevice.open() != nil else {
            guard let file = SDL_RWFromFile(path, "rb") else { throw SDLError("SDL_RWFromFile(\(path))") }
            SDL_RWclose(file)
            chunk = nil
            return
        }
        guard let loaded = CSDL2_LoadWAV(path) else { throw SDLError("Mix_LoadWAV(\(path))") }
        chunk = loaded
    }

    /// A sound made in code: mono `samples` from −1 to 1 at `sampleRate` a
    /// second (a beep: a sine wave that dies away), converted to the mixer's
    /// format. Needs no file, so a game can have sound before it has assets.
    public init(samples: [Float], sampleRate: Int = 48_000) {
        guard AudioDevice.open() != nil, !samples.isEmpty else { chunk = nil; return }
        let wav = WAVBytes.mono16(samples, sampleRate: sampleRate)
        chunk = wav.withUnsafeBytes { bytes in
            SDL_RWFromConstMem(bytes.baseAddress, Int32(bytes.count)).flatMap { Mix_LoadWAV_RW($0, 1) }
        }
    }

    deinit {
        guard let chunk else { return }
        AudioDevice.current?.scheduler.cancel(ObjectIdentifier(self))
        Mix_FreeChunk(chunk)   // stops the channels playing it first
    }

    /// Plays the sound now, on a free channel (none free: not played).
    public func play() {
        guard let chunk, AudioDevice.current != nil else { return }
        _ = CSDL2_PlayChannel(-1, chunk, 0)
    }

    /// Plays the sound so that it is heard when `frame` reaches the glass
    /// (its `targetTimestamp`): the flash of a shot and
    /// its bang together. The audio device's own delay (its buffer's length,
    /// from SDL's audio spec) is taken into account and the start is placed
    /// to the sample; a frame whose moment has already passed, for the
    /// sound, plays it as soon as it can.
    public func play(when frame: DisplayLinkFrame) {
        play(at: frame.targetTimestampNanoseconds)
    }

    /// Plays the sound so that its first sample is heard at `time` on the monotonic clock.
    func play(at time: Nanoseconds) {
        guard let chunk, let device = AudioDevice.current else { return }
        device.scheduler.schedule(chunk.pointee.abuf, bytes: Int(chunk.pointee.alen),
                                  volume: Int32(chunk.pointee.volume), start: time, owner: ObjectIdentifier(self))
    }

    /// SDL_mixer's volume (0…128) for one from 0 to 1.
    static func mixerVolume(_ volume: Double) -> Int32 {
        Int32((min(max(volume, 0), 1) * Double(MIX_MAX_VOLUME)).rounded())
    }
}

extension Sound {
    /// The audio device as the mixer runs it: samples a second, sample
    /// frames in one buffer, channels and SDL's driver; nil with sound off.
    /// For the benchmark that times sounds against glass times.
    @_spi(Programs) public static var device: (rate: Int, bufferFrames: Int, channels: Int, driver: String)? {
        AudioDevice.open().map { ($0.rate, Int(AudioDevice.bufferFrames), $0.channels, $0.driver) }
    }
}
