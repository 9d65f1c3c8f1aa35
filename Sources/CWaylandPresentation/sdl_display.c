#include "CWaylandPresentation.h"

#include <dlfcn.h>
#include <string.h>
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <wayland-client.h>

struct wl_display *cadence_wl_display_of(struct SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_WAYLAND) return NULL;
    return info.info.wl.display;
}

/* SDL 3 is loaded by sdl2-compat, not linked: its functions are found in the
 * library already in the process (RTLD_NOLOAD never loads one). The property
 * is SDL 3's SDL_PROP_GLOBAL_VIDEO_WAYLAND_WL_DISPLAY_POINTER, set as its
 * Wayland video starts. */
struct wl_display *cadence_wl_display_of_sdl3_video(void) {
    void *sdl3 = dlopen("libSDL3.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (sdl3 == NULL) return NULL;
    uint32_t (*global_properties)(void) = (uint32_t (*)(void))dlsym(sdl3, "SDL_GetGlobalProperties");
    void *(*pointer_property)(uint32_t, const char *, void *) =
        (void *(*)(uint32_t, const char *, void *))dlsym(sdl3, "SDL_GetPointerProperty");
    const char *(*video_driver)(void) = (const char *(*)(void))dlsym(sdl3, "SDL_GetCurrentVideoDriver");
    struct wl_display *display = NULL;
    if (global_properties != NULL && pointer_property != NULL && video_driver != NULL) {
        const char *driver = video_driver();
        if (driver != NULL && strcmp(driver, "wayland") == 0)
            display = pointer_property(global_properties(), "SDL.video.wayland.wl_display", NULL);
    }
    dlclose(sdl3);
    return display;
}
