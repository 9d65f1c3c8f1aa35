import CSDL2

/// A piece of music, streamed from its file as it plays (SDL_mixer: OGG,
/// MP3, FLAC, WAV, MOD...): one plays at a time, under the sound effects.
/// With sound off (see ``Sound/offReason``) it plays nothing.
public final class Music {
    /// SDL_mixer's music; nil with sound off.
    private let music: OpaquePointer?

    /// Opens a music file. Throws with the path in the message when it is
    /// missing or not music SDL_mixer reads; with sound off, only a missing
    /// file throws.
    public init(file path: String) throws {
        guard AudioDevice.open() != nil else {
            guard let file = SDL_RWFromFile(path, "rb") else { throw SDLError("SDL_RWFromFile(\(path))") }
            SDL_RWclose(file)
            music = nil
            return
        }
        guard let loaded = Mix_LoadMUS(path) else { throw SDLError("Mix_LoadMUS(\(path))") }
        music = loaded
    }

    deinit { if let music { Mix_FreeMusic(music) } }   // stops it first if it is playing

    /// Plays from the start, `loops` times (nil: until stopped), in place of any music playing.
    public func play(loops: Int? = nil) {
        guard let music, AudioDevice.current != nil else { return }
        Mix_PlayMusic(music, Int32(loops ?? -1))
    }

    /// Stops the music playing.
    public static func stop() {
        guard AudioDevice.current != nil else { return }
        Mix_HaltMusic()
    }

    /// Whether music is playing.
    public static var isPlaying: Bool { AudioDevice.current != nil && Mix_PlayingMusic() != 0 }

    /// How loud music plays, from 0 (silent) to 1 (as recorded, the default).
    public static var volume: Double {
        get { AudioDevice.current == nil ? 0 : Double(Mix_VolumeMusic(-1)) / Double(MIX_MAX_VOLUME) }
        set { if AudioDevice.current != nil { Mix_VolumeMusic(Sound.mixerVolume(newValue)) } }
    }
}
