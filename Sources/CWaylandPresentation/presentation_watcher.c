#include "CWaylandPresentation.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <wayland-client.h>

extern const struct wl_interface wp_presentation_interface;
extern const struct wl_interface wp_presentation_feedback_interface;

enum { PRESENTATION_FEEDBACK = 1 };   /* wp_presentation.feedback's opcode */
enum { REPORT_SLOTS = 64 };           /* reports kept until read: many frames' worth */
enum { PENDING_SLOTS = 64 };          /* far more frames than a compositor keeps in flight */

/* One frame's report: which request, and when it was shown (or that it was discarded). */
struct report {
    uint64_t ticket;
    int64_t time_ns;
    int presented;
};

/* A feedback object awaiting its event, with what its listener needs: the
   watcher and the frame's ticket. A slot is free when `feedback` is NULL. */
struct pending_feedback {
    struct cadence_wl_presentation *watcher;
    uint64_t ticket;
    struct wl_proxy *feedback;
};

struct cadence_wl_presentation {
    struct wl_display *display;
    struct wl_surface *surface;
    struct wl_event_queue *queue;
    struct wl_display *display_wrapper;   /* SDL's display, its requests' new objects on our queue */
    struct wl_registry *registry;
    struct wl_proxy *presentation;
    int have_clock;
    uint32_t clock_id;
    int presented;                        /* since the last poll */
    int discarded;
    int64_t time_ns;
    uint64_t sequence;
    uint32_t refresh_ns, flags;
    uint64_t next_ticket;
    struct report reports[REPORT_SLOTS];  /* a ring: the oldest is dropped when full */
    int report_first, report_count;
    /* Destroyed with the watcher: an event arriving for one after its queue
       is gone would be queued on freed memory. */
    struct pending_feedback pending[PENDING_SLOTS];
};

static void keep_report(struct cadence_wl_presentation *watcher, uint64_t ticket, int64_t time_ns, int presented) {
    if (watcher->report_count == REPORT_SLOTS) {
        watcher->report_first = (watcher->report_first + 1) % REPORT_SLOTS;
        watcher->report_count -= 1;
    }
    struct report *slot = &watcher->reports[(watcher->report_first + watcher->report_count) % REPORT_SLOTS];
    slot->ticket = ticket;
    slot->time_ns = time_ns;
    slot->presented = presented;
    watcher->report_count += 1;
}

static void on_clock_id(void *data, struct wl_proxy *presentation, uint32_t clock_id) {
    (void)presentation;
    struct cadence_wl_presentation *watcher = data;
    watcher->have_clock = 1;
    watcher->clock_id = clock_id;
}

static const struct {
    void (*clock_id)(void *, struct wl_proxy *, uint32_t);
} presentation_listener = {on_clock_id};

static int64_t nanoseconds(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* CLOCK_MONOTONIC less CLOCK_MONOTONIC_RAW now. Compositors that time
   presentation in software (Weston's headless, x11 and wayland backends) report
   on CLOCK_MONOTONIC_RAW, which NTP does not slew; the two drift apart by at
   most a few hundred parts per million, so an offset read when the event
   arrives converts a time a frame or two old to well under a microsecond. The
   raw clock is read between two monotonic reads, and the middle one taken.
   Shared with timed_commits.c, whose timestamps go the other way. */
int64_t cadence_wl_monotonic_minus_raw(void) {
    int64_t before = nanoseconds(CLOCK_MONOTONIC);
    int64_t raw = nanoseconds(CLOCK_MONOTONIC_RAW);
    int64_t after = nanoseconds(CLOCK_MONOTONIC);
    return before + (after - before) / 2 - raw;
}

static void finish(struct pending_feedback *pending) {
    wl_proxy_destroy(pending->feedback);
    pending->feedback = NULL;
}

static void on_sync_output(void *data, struct wl_proxy *feedback, struct wl_proxy *output) {
    (void)data, (void)feedback, (void)output;
}

static void on_presented(void *data, struct wl_proxy *feedback, uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec,
                         uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo, uint32_t flags) {
    struct pending_feedback *pending = data;
    struct cadence_wl_presentation *watcher = pending->watcher;
    watcher->presented += 1;
    watcher->time_ns = (int64_t)((((uint64_t)sec_hi << 32) | sec_lo) * 1000000000ull + nsec);
    if (watcher->clock_id == CLOCK_MONOTONIC_RAW) watcher->time_ns += cadence_wl_monotonic_minus_raw();
    watcher->sequence = ((uint64_t)seq_hi << 32) | seq_lo;
    watcher->refresh_ns = refresh;
    watcher->flags = flags;
    keep_report(watcher, pending->ticket, watcher->time_ns, 1);
    (void)feedback;
    finish(pending);
}

static void on_discarded(void *data, struct wl_proxy *feedback) {
    struct pending_feedback *pending = data;
    pending->watcher->discarded += 1;
    keep_report(pending->watcher, pending->ticket, 0, 0);
    (void)feedback;
    finish(pending);
}

static const struct {
    void (*sync_output)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*presented)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t);
    void (*discarded)(void *, struct wl_proxy *);
} feedback_listener = {on_sync_output, on_presented, on_discarded};

static void on_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)version;
    struct cadence_wl_presentation *watcher = data;
    if (strcmp(interface, wp_presentation_interface.name) != 0 || watcher->presentation != NULL) return;
    watcher->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
    wl_proxy_add_listener(watcher->presentation, (void (**)(void))&presentation_listener, watcher);
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

cadence_wl_presentation *cadence_wl_presentation_open(struct SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_WAYLAND) return NULL;
    cadence_wl_presentation *watcher = calloc(1, sizeof *watcher);
    if (watcher == NULL) return NULL;
    watcher->display = info.info.wl.display;
    watcher->surface = info.info.wl.surface;
    watcher->queue = wl_display_create_queue(watcher->display);
    watcher->display_wrapper = wl_proxy_create_wrapper(watcher->display);
    if (watcher->queue == NULL || watcher->display_wrapper == NULL) {
        cadence_wl_presentation_close(watcher);
        return NULL;
    }
    wl_proxy_set_queue((struct wl_proxy *)watcher->display_wrapper, watcher->queue);
    watcher->registry = wl_display_get_registry(watcher->display_wrapper);
    wl_registry_add_listener(watcher->registry, &registry_listener, watcher);
    /* One round trip for the globals (and the bind), one for clock_id; a
       compositor that does not answer within a second gives no clock. */
    int answered = cadence_wl_roundtrip_within(watcher->display, watcher->queue, watcher->display_wrapper, 1000) == 0;
    if (answered && watcher->presentation != NULL)
        answered = cadence_wl_roundtrip_within(watcher->display, watcher->queue, watcher->display_wrapper, 1000) == 0;
    if (!answered || watcher->presentation == NULL || !watcher->have_clock || (watcher->clock_id != CLOCK_MONOTONIC && watcher->clock_id != CLOCK_MONOTONIC_RAW)) {
        cadence_wl_presentation_close(watcher);
        return NULL;
    }
    return watcher;
}

uint64_t cadence_wl_presentation_request(cadence_wl_presentation *watcher) {
    struct pending_feedback *pending = NULL;
    for (int i = 0; i < PENDING_SLOTS && pending == NULL; i++) {
        if (watcher->pending[i].feedback == NULL) pending = &watcher->pending[i];
    }
    if (pending == NULL) return 0;
    struct wl_proxy *feedback = wl_proxy_marshal_flags(watcher->presentation, PRESENTATION_FEEDBACK,
                                                       &wp_presentation_feedback_interface,
                                                       wl_proxy_get_version(watcher->presentation), 0,
                                                       watcher->surface, NULL);
    if (feedback == NULL) return 0;
    pending->watcher = watcher;
    pending->ticket = ++watcher->next_ticket;
    pending->feedback = feedback;
    wl_proxy_add_listener(feedback, (void (**)(void))&feedback_listener, pending);
    return pending->ticket;
}

int cadence_wl_presentation_next_report(cadence_wl_presentation *watcher, uint64_t *ticket, int64_t *time_ns) {
    if (watcher->report_count == 0) return -1;
    struct report *slot = &watcher->reports[watcher->report_first];
    watcher->report_first = (watcher->report_first + 1) % REPORT_SLOTS;
    watcher->report_count -= 1;
    *ticket = slot->ticket;
    *time_ns = slot->time_ns;
    return slot->presented;
}

int cadence_wl_presentation_poll(cadence_wl_presentation *watcher, int64_t *time_ns, uint64_t *sequence,
                                 uint32_t *refresh_ns, uint32_t *flags) {
    /* Read what the socket holds without blocking; events for SDL's queue
       wait there for SDL to dispatch them. */
    while (wl_display_prepare_read_queue(watcher->display, watcher->queue) != 0) {
        if (wl_display_dispatch_queue_pending(watcher->display, watcher->queue) < 0) return -1;
    }
    wl_display_flush(watcher->display);
    struct pollfd fd = {wl_display_get_fd(watcher->display), POLLIN, 0};
    if (poll(&fd, 1, 0) > 0) {
        if (wl_display_read_events(watcher->display) < 0) return -1;
    } else {
        wl_display_cancel_read(watcher->display);
    }
    if (wl_display_dispatch_queue_pending(watcher->display, watcher->queue) < 0) return -1;
    int presented = watcher->presented;
    watcher->presented = 0;
    *time_ns = watcher->time_ns;
    *sequence = watcher->sequence;
    *refresh_ns = watcher->refresh_ns;
    *flags = watcher->flags;
    return presented;
}

int cadence_wl_presentation_discarded(const cadence_wl_presentation *watcher) { return watcher->discarded; }

void cadence_wl_presentation_close(cadence_wl_presentation *watcher) {
    if (watcher == NULL) return;
    for (int i = 0; i < PENDING_SLOTS; i++) {
        if (watcher->pending[i].feedback != NULL) finish(&watcher->pending[i]);
    }
    if (watcher->presentation != NULL) wl_proxy_destroy(watcher->presentation);
    if (watcher->registry != NULL) wl_registry_destroy(watcher->registry);
    if (watcher->display_wrapper != NULL) wl_proxy_wrapper_destroy(watcher->display_wrapper);
    if (watcher->queue != NULL) wl_event_queue_destroy(watcher->queue);
    free(watcher);
}
