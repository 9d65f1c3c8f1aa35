// The one C header Swift sees for SDL2. It includes SDL, SDL_ttf,
// SDL_image (PNG and JPEG textures) and SDL_mixer (sound) and wraps,
// as `static inline` functions prefixed `CSDL2_`, the macros Swift cannot import
// (function-like macros, and constants built from expressions).
#ifndef CADENCE_CSDL2_SHIM_H
#define CADENCE_CSDL2_SHIM_H

// Included by their SDL2/ directory rather than through pkg-config's
// `-I.../SDL2`: sdl2.pc also carries `-D_REENTRANT`, which SwiftPM refuses with
// a warning on every build of every package that uses Cadence (and glibc
// needs no such flag). The module map links the four libraries itself.
#if !__has_include(<SDL2/SDL.h>) || !__has_include(<SDL2/SDL_ttf.h>) || !__has_include(<SDL2/SDL_image.h>)
#error "SDL2, SDL2_ttf or SDL2_image headers not found: install libsdl2-dev, libsdl2-ttf-dev and libsdl2-image-dev (Cadence's Scripts/setup does)"
#endif
#if !__has_include(<SDL2/SDL_mixer.h>)
#error "SDL2_mixer headers not found: install libsdl2-mixer-dev (Cadence's Scripts/setup does)"
#endif
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <SDL2/SDL_image.h>
#include <SDL2/SDL_mixer.h>

/// `SDL_WINDOWPOS_CENTERED`: centre the window on the primary display.
static inline int CSDL2_WindowPosCentered(void) { return (int)SDL_WINDOWPOS_CENTERED; }

/// `SDL_WINDOWPOS_UNDEFINED`: let the window manager place the window.
static inline int CSDL2_WindowPosUndefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }

/// `SDL_BUTTON(X)`: the bit for mouse button `X` in a button-state mask.
static inline Uint32 CSDL2_Button(int button) { return (Uint32)SDL_BUTTON(button); }

/// `SDL_LoadBMP(file)`: a surface from a BMP file, or NULL with `SDL_GetError()` set.
static inline SDL_Surface *CSDL2_LoadBMP(const char *file) { return SDL_LoadBMP(file); }

/// `SDL_PIXELFORMAT_ARGB8888`, an enum Swift imports awkwardly; used for screenshots.
static inline Uint32 CSDL2_PixelFormatARGB8888(void) { return (Uint32)SDL_PIXELFORMAT_ARGB8888; }

/// `SDL_MUSTLOCK(surface)`: whether pixels must be locked before they are read.

/// `SDL_WINDOW_FULLSCREEN_DESKTOP`: borderless fullscreen at the desktop mode.
static inline Uint32 CSDL2_WindowFullscreenDesktop(void) { return (Uint32)SDL_WINDOW_FULLSCREEN_DESKTOP; }

/// `AUDIO_S16SYS`: signed 16-bit samples in the machine's byte order, the mixer's format.
static inline Uint16 CSDL2_AudioS16System(void) { return (Uint16)AUDIO_S16SYS; }

/// `AUDIO_F32SYS`: 32-bit float samples in the machine's byte order (sounds made in code).
static inline Uint16 CSDL2_AudioF32System(void) { return (Uint16)AUDIO_F32SYS; }

/// `SDL_AUDIO_BITSIZE(format)`: the bits of one sample of `format`.
static inline int CSDL2_AudioBitSize(Uint16 format) { return (int)SDL_AUDIO_BITSIZE(format); }

/// `Mix_LoadWAV(file)`: a sound file (WAV, OGG, ...) decoded into the mixer's format, or NULL.
static inline Mix_Chunk *CSDL2_LoadWAV(const char *file) { return Mix_LoadWAV(file); }

/// `Mix_PlayChannel(channel, chunk, loops)`: plays on a free channel (-1), returns it or -1.
static inline int CSDL2_PlayChannel(int channel, Mix_Chunk *chunk, int loops) {
    return Mix_PlayChannel(channel, chunk, loops);
}

/// `SDL_VERSION`: the SDL headers this was compiled against.
static inline SDL_version CSDL2_CompiledVersion(void) { SDL_version v; SDL_VERSION(&v); return v; }

#endif
