#include "CWaylandPresentation.h"

#include <errno.h>
#include <poll.h>
#include <time.h>
#include <wayland-client.h>

/* A compositor that accepts a connection and never answers (stopped, hung,
   or not a compositor at all) would hold wl_display_roundtrip for ever: this
   one gives up at a deadline. It reads the socket itself, the way
   wl_display_dispatch_queue does, but polls with the time left. */

static int64_t milliseconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void on_done(void *data, struct wl_callback *callback, uint32_t serial) {
    (void)callback, (void)serial;
    *(int *)data = 1;
}

static const struct wl_callback_listener done_listener = {on_done};

static int prepare(struct wl_display *display, struct wl_event_queue *queue) {
    return queue ? wl_display_prepare_read_queue(display, queue) : wl_display_prepare_read(display);
}

static int dispatch_pending(struct wl_display *display, struct wl_event_queue *queue) {
    return queue ? wl_display_dispatch_queue_pending(display, queue) : wl_display_dispatch_pending(display);
}

int cadence_wl_roundtrip_within(struct wl_display *display, struct wl_event_queue *queue,
                                struct wl_display *requester, int timeout_ms) {
    int done = 0;
    struct wl_callback *callback = wl_display_sync(requester);
    if (callback == NULL) return -1;
    wl_callback_add_listener(callback, &done_listener, &done);
    int64_t deadline = milliseconds_now() + timeout_ms;
    while (!done) {
        if (prepare(display, queue) != 0) {
            if (dispatch_pending(display, queue) < 0) break;
            continue;
        }
        /* Requests that do not fit the socket's buffer now are sent on a later pass. */
        if (wl_display_flush(display) < 0 && errno != EAGAIN) {
            wl_display_cancel_read(display);
            break;
        }
        int64_t left = deadline - milliseconds_now();
        struct pollfd fd = {wl_display_get_fd(display), POLLIN, 0};
        int ready = left > 0 ? poll(&fd, 1, (int)left) : 0;
        if (ready <= 0) {
            wl_display_cancel_read(display);
            if (ready < 0 && errno == EINTR) continue;
            break;
        }
        if (wl_display_read_events(display) < 0 || dispatch_pending(display, queue) < 0) break;
    }
    wl_callback_destroy(callback);
    return done ? 0 : -1;
}

int cadence_wl_display_error(struct wl_display *display) {
    return display != NULL ? wl_display_get_error(display) : 0;
}
