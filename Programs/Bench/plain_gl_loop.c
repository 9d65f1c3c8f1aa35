/*
 * A plain SDL OpenGL loop for Scripts/bench precision and cost: the loop most
 * SDL games write, vsync off and paced by SDL_Delay, by a busy-wait on the
 * clock to each frame's absolute deadline, or by nothing, so that a limiter
 * preloaded into it (MangoHud's fps_limit) paces its swaps; or, with vsync,
 * the plainest SDL game: SDL's renderer with SDL_RENDERER_PRESENTVSYNC and
 * nothing else (FPS unused). Where the GL driver cannot set a swap interval
 * (Mesa's software rasteriser in an X server), SDL's renderer sleeps in its
 * present to the display's rate instead, as every SDL game there does. It swaps
 * through libGL's own glXSwapBuffers symbol, the one such a layer replaces
 * (SDL_GL_SwapWindow calls a pointer SDL looked up itself). It is C, not
 * Swift, because MangoHud 0.6.8 looks for dlopen in the first loaded object
 * whose name contains "libc.so", which in a Swift program is libswiftGlibc.so.
 *
 *   plain_gl_loop none|sdl-delay|busy|vsync FPS SECONDS LOG
 *
 * LOG gets when each swap returned, in nanoseconds on CLOCK_MONOTONIC, one a
 * line (the clock the sample's trace uses).
 */
#include <GL/gl.h>
#include <GL/glx.h>
#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int write_log(const char *path, const long long *returns, size_t count) {
    FILE *log = fopen(path, "w");
    if (log == NULL) {
        fprintf(stderr, "plain_gl_loop: cannot create %s\n", path);
        return 73;
    }
    for (size_t i = 0; i < count; i++) fprintf(log, "%lld\n", returns[i]);
    fclose(log);
    return 0;
}

/* The same drawing through SDL's renderer with vsync: clear, one rectangle, present. */
static int vsync_loop(SDL_Window *window, double seconds, long long *returns, size_t capacity, const char *path) {
    SDL_Renderer *renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (renderer == NULL) {
        fprintf(stderr, "plain_gl_loop: %s\n", SDL_GetError());
        return 66;
    }
    size_t count = 0;
    long long end = now_ns() + (long long)(seconds * 1e9);
    for (int frame = 0; now_ns() < end && count < capacity; frame++) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) {}
        SDL_SetRenderDrawColor(renderer, 16, 16, 24, 255);
        SDL_RenderClear(renderer);
        SDL_Rect square = {(frame * 3) % 608, 164, 32, 32};
        SDL_SetRenderDrawColor(renderer, 240, 180, 40, 255);
        SDL_RenderFillRect(renderer, &square);
        SDL_RenderPresent(renderer);
        returns[count++] = now_ns();
    }
    int status = write_log(path, returns, count);
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return status;
}

int main(int argc, char **argv) {
    const char *modes[] = {"none", "sdl-delay", "busy", "vsync"};
    int mode = -1;
    for (int i = 0; argc == 5 && i < 4; i++) if (strcmp(argv[1], modes[i]) == 0) mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: plain_gl_loop none|sdl-delay|busy|vsync FPS SECONDS LOG\n");
        return 64;
    }
    int delay = mode == 1, busy = mode == 2;
    int fps = atoi(argv[2]);
    double seconds = atof(argv[3]);
    if (fps < 1 || fps > 1000 || !(seconds > 0 && seconds <= 3600)) {
        fprintf(stderr, "plain_gl_loop: FPS 1 to 1000 and SECONDS above 0 up to 3600\n");
        return 64;
    }
    size_t capacity = (size_t)(seconds * 20000) + 16, count = 0;
    long long *returns = malloc(capacity * sizeof *returns);
    if (returns == NULL || SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "plain_gl_loop: %s\n", returns ? SDL_GetError() : "out of memory");
        return 66;
    }
    SDL_Window *window = SDL_CreateWindow("plain_gl_loop", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                          640, 360, SDL_WINDOW_OPENGL);
    if (window != NULL && mode == 3) return vsync_loop(window, seconds, returns, capacity, argv[4]);
    SDL_GLContext context = window ? SDL_GL_CreateContext(window) : NULL;
    if (context == NULL) {
        fprintf(stderr, "plain_gl_loop: %s\n", SDL_GetError());
        return 66;
    }
    SDL_GL_SetSwapInterval(0);
    Display *display = glXGetCurrentDisplay();
    GLXDrawable drawable = glXGetCurrentDrawable();
    long long interval = 1000000000LL / fps, end = now_ns() + (long long)(seconds * 1e9), deadline = now_ns();
    for (int frame = 0; now_ns() < end && count < capacity; frame++) {
        long long start = now_ns();
        SDL_Event event;
        while (SDL_PollEvent(&event)) {}
        glClearColor(16 / 255.0f, 16 / 255.0f, 24 / 255.0f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glEnable(GL_SCISSOR_TEST);
        glScissor((frame * 3) % 608, 164, 32, 32);
        glClearColor(240 / 255.0f, 180 / 255.0f, 40 / 255.0f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
        if (busy) {
            deadline += interval;
            while (now_ns() < deadline) {}
        }
        glXSwapBuffers(display, drawable);
        returns[count++] = now_ns();
        long long elapsed = now_ns() - start;
        if (delay && elapsed < interval) SDL_Delay((Uint32)((interval - elapsed) / 1000000));
    }
    int status = write_log(argv[4], returns, count);
    SDL_GL_DeleteContext(context);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return status;
}
