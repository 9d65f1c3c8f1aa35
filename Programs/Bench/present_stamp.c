/*
 * When each frame leaves for the X server, seen from inside the driver, for
 * `Scripts/bench cost`: a library preloaded into every contender alike
 * (LD_PRELOAD), so one clock judges them all, none of them by its own account.
 *
 * Mesa's GLX presents a software-rendered frame (llvmpipe, on Xvfb) by
 * sending its pixels with XShmPutImage, or XPutImage without shared memory,
 * at the end of glXSwapBuffers. This library stands in for both: it reads
 * CLOCK_MONOTONIC as each is called, calls Xlib's own, and at exit writes
 * the times, in ns, one a line, to the file named by PRESENT_STAMP_LOG.
 *
 * Why it is needed: a limiter that sleeps inside the swap after sending the
 * frame, as MangoHud 0.6.8's does (its glXSwapBuffers calls the driver's,
 * then FpsLimiter), makes the swap's return its own wake-up, not the
 * frame's; a limiter that sleeps before the present (Cadence, SDL_Delay, a
 * busy-wait) returns after the frame was sent. Only the moment the pixels
 * are sent is the same event for all of them.
 *
 * Built by Scripts/bench-cost: cc -shared -fPIC -o present_stamp.so present_stamp.c -ldl
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/extensions/XShm.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* A run of the bench is seconds at up to a thousand frames a second. */
enum { capacity = 1 << 20 };
static long long stamps[capacity];
static int count;

static void stamp(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (count < capacity) stamps[count++] = t.tv_sec * 1000000000LL + t.tv_nsec;
}

Bool XShmPutImage(Display *display, Drawable drawable, GC gc, XImage *image, int src_x, int src_y, int dst_x,
                  int dst_y, unsigned int width, unsigned int height, Bool send_event) {
    static Bool (*real)(Display *, Drawable, GC, XImage *, int, int, int, int, unsigned int, unsigned int, Bool);
    if (real == NULL) real = (Bool (*)(Display *, Drawable, GC, XImage *, int, int, int, int, unsigned int,
                                       unsigned int, Bool))dlsym(RTLD_NEXT, "XShmPutImage");
    stamp();
    return real(display, drawable, gc, image, src_x, src_y, dst_x, dst_y, width, height, send_event);
}

int XPutImage(Display *display, Drawable drawable, GC gc, XImage *image, int src_x, int src_y, int dst_x, int dst_y,
              unsigned int width, unsigned int height) {
    static int (*real)(Display *, Drawable, GC, XImage *, int, int, int, int, unsigned int, unsigned int);
    if (real == NULL) real = (int (*)(Display *, Drawable, GC, XImage *, int, int, int, int, unsigned int,
                                      unsigned int))dlsym(RTLD_NEXT, "XPutImage");
    stamp();
    return real(display, drawable, gc, image, src_x, src_y, dst_x, dst_y, width, height);
}

__attribute__((destructor)) static void write_stamps(void) {
    const char *path = getenv("PRESENT_STAMP_LOG");
    FILE *file = path ? fopen(path, "w") : NULL;
    if (file == NULL) return;
    for (int i = 0; i < count; i++) fprintf(file, "%lld\n", stamps[i]);
    fclose(file);
}
