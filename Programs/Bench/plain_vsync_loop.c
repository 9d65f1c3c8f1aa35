/*
 * The plainest SDL game loop, for the vblank lab's lane (Scripts/vblank-lab-lane):
 * clear, draw a square, present with vsync, repeat, with SDL's default
 * renderer. Beside the sample on the same emulated machine and display, it
 * tells whether a run the sample could not finish was too slow for any game
 * there (then the lane does not judge it) or too slow for the sample alone,
 * and what rate a plain loop keeps there (the sample's must be no lower).
 *
 *   plain_vsync_loop FRAMES SECONDS
 *
 * Presents until FRAMES presents have returned or SECONDS have passed since
 * it started, whichever comes first, then prints one line:
 *   plain vsync loop: N frames in T s, the first after F s, R FPS after it
 * (F and R are "-" when no present returned, R also after one). Exit 0 with
 * that line, 64 for bad
 * arguments, 1 when SDL could not open a window.
 */
#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    double start = now_s();
    long frames = argc == 3 ? strtol(argv[1], NULL, 10) : 0;
    double seconds = argc == 3 ? atof(argv[2]) : 0;
    if (frames < 1 || frames > 1000000 || !(seconds > 0 && seconds <= 3600)) {
        fprintf(stderr, "usage: plain_vsync_loop FRAMES SECONDS (FRAMES 1 to 1000000, SECONDS above 0 up to 3600)\n");
        return 64;
    }
    double end = start + seconds, first = -1, last = -1;
    long presented = 0;
    SDL_Window *window = NULL;
    SDL_Renderer *renderer = NULL;
    if (SDL_Init(SDL_INIT_VIDEO) == 0) {
        window = SDL_CreateWindow("plain_vsync_loop", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 640, 360, 0);
    }
    if (window != NULL) renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC);
    if (renderer == NULL) {
        fprintf(stderr, "plain_vsync_loop: no window: %s\n", SDL_GetError());
        return 1;
    }
    while (presented < frames && now_s() < end) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) {}
        SDL_SetRenderDrawColor(renderer, 16, 16, 24, 255);
        SDL_RenderClear(renderer);
        SDL_Rect square = {(int)(presented * 3 % 608), 164, 32, 32};
        SDL_SetRenderDrawColor(renderer, 240, 180, 40, 255);
        SDL_RenderFillRect(renderer, &square);
        SDL_RenderPresent(renderer);
        last = now_s() - start;
        if (presented++ == 0) first = last;
    }
    double took = now_s() - start;
    if (first < 0) printf("plain vsync loop: 0 frames in %.1f s, the first after -, - FPS after it\n", took);
    else if (presented < 2) printf("plain vsync loop: 1 frames in %.1f s, the first after %.1f s, - FPS after it\n", took, first);
    else printf("plain vsync loop: %ld frames in %.1f s, the first after %.1f s, %.3f FPS after it\n", presented, took,
                first, (presented - 1) / (last - first));
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return 0;
}
