@_spi(Programs) import Cadence
import CSDL2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The audio device SDL_mixer plays through: opened on the first ``Sound``
/// or ``Music`` (all on the main thread, as every SDL call here), closed
/// when the SDL session shuts down. Where none can be
/// opened (no sound card, no sound server: a CI machine) sound is off: it
/// says so in one line on standard error, and every sound plays nothing.
final class AudioDevice {
    /// Samples a second the mixer asks for; SDL converts where the hardware differs.
    static let requestedRate: Int32 = 48_000
    /// Sample frames in one buffer the device asks the mixer for: 256 at
    /// 48 kHz is 5.3 ms. A sound can be placed only in a buffer not yet
    /// mixed, so it is on time when played at least a buffer (two on a sound
    /// card, which plays a buffer after the one playing) before its moment:
    /// a smooth frame's callback starts about a refresh before its glass time.
    static let bufferFrames: Int32 = 256

    /// The device, once opened; nil before the first attempt and after it failed or closed.
    nonisolated(unsafe) private(set) static var current: AudioDevice?
    /// Why sound is off, after an attempt to open the device failed.
    nonisolated(unsafe) private(set) static var offReason: String?

    /// Samples a second, sample formats and channels as the mixer runs them.
    let rate: Int
    let format: UInt16
    let channels: Int
    /// Bytes of one sample frame (a sample for every channel).
    let frameBytes: Int
    /// SDL's audio driver: `pulseaudio`, `alsa`, `disk`, `dummy`...
    let driver: String
    /// What starts sounds at their frames' glass times, in the mixer's thread.
    let scheduler: GlassScheduler

    private init(rate: Int, format: UInt16, channels: Int, driver: String) {
        self.rate = rate; self.format = format; self.channels = channels; self.driver = driver
        frameBytes = channels * Int(CSDL2_AudioBitSize(format)) / 8
        // The disk and dummy drivers take each buffer as it is mixed (written
        // to a file, or dropped); a sound card's driver plays the buffer
        // after the one it is playing, a buffer later.
        scheduler = GlassScheduler(rate: rate, format: format, frameBytes: frameBytes,
                                   queuesOneBuffer: driver != "disk" && driver != "dummy")
    }

    /// The device, opened on first use; nil with sound off.
    static func open() -> AudioDevice? {
        if let current { return current }
        guard offReason == nil else { return nil }
        // With no sound card only a sound server can play, and only where its
        // socket is: the drivers SDL would try instead (ALSA, PipeWire's
        // library) print lines of their own before they fail.
        let serverOnly = getenv("SDL_AUDIODRIVER") == nil && access("/dev/snd", F_OK) != 0
        if serverOnly { setenv("SDL_AUDIODRIVER", "pipewire,pulseaudio", 1) }
        let initialised = (!serverOnly || soundServerListens)
            && (SDL_WasInit(SDL_INIT_AUDIO) != 0 || SDL_InitSubSystem(SDL_INIT_AUDIO) == 0)
        if serverOnly { unsetenv("SDL_AUDIODRIVER") }
        guard initialised, Mix_OpenAudio(requestedRate, CSDL2_AudioS16System(), 2, bufferFrames) == 0 else {
            let reason = String(cString: SDL_GetError())
            offReason = serverOnly ? "no sound card (/dev/snd) and no sound server"
                : reason.isEmpty ? "no audio device" : reason
            let line = Array("sound off: \(offReason!)\n".utf8)
            _ = write(STDERR_FILENO, line, line.count)
            return nil
        }
        var rate: Int32 = 0, format: UInt16 = 0, channels: Int32 = 0
        Mix_QuerySpec(&rate, &format, &channels)
        let driver = SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "unknown"
        let device = AudioDevice(rate: Int(rate), format: format, channels: Int(channels), driver: driver)
        Mix_SetPostMix({ context, stream, bytes in
            guard let context, let stream else { return }
            Unmanaged<GlassScheduler>.fromOpaque(context).takeUnretainedValue()
                .mix(into: stream, bytes: Int(bytes), at: MonotonicClock().now)
        }, Unmanaged.passUnretained(device.scheduler).toOpaque())
        current = device
        return device
    }

    /// Whether a PulseAudio or PipeWire server's socket is there: `PULSE_SERVER`
    /// names one, or the session's runtime folder holds `pulse/native` or `pipewire-0`.
    private static var soundServerListens: Bool {
        if getenv("PULSE_SERVER") != nil { return true }
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }) else { return false }
        return ["/pulse/native", "/pipewire-0"].contains { access(runtime + $0, F_OK) == 0 }
    }

    /// Closes the device (the SDL session is shutting down); sounds still
    /// held play nothing after it. A new session opens it again.
    static func close() {
        offReason = nil
        guard current != nil else { return }
        Mix_SetPostMix(nil, nil)
        Mix_HaltMusic()
        Mix_HaltChannel(-1)
        Mix_CloseAudio()
        SDL_QuitSubSystem(SDL_INIT_AUDIO)
        current = nil
    }
}
