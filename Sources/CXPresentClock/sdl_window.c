#include "CXPresentClock.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>

uint32_t cadence_sdl_x11_window(struct SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    return (uint32_t)info.info.x11.window;
}
