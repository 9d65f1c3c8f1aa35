#include "CWaylandPresentation.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <wayland-client.h>

extern const struct wl_interface wp_commit_timing_manager_v1_interface;
extern const struct wl_interface wp_commit_timer_v1_interface;
extern const struct wl_interface wp_fifo_manager_v1_interface;
extern const struct wl_interface wp_fifo_v1_interface;
extern const struct wl_interface wp_presentation_interface;

int64_t cadence_wl_monotonic_minus_raw(void);   /* presentation_watcher.c */

/* Opcodes, from the specifications (see timed_commit_protocol.c). */
enum { MANAGER_DESTROY = 0, MANAGER_GET = 1 };
enum { TIMER_SET_TIMESTAMP = 0, TIMER_DESTROY = 1 };
enum { FIFO_SET_BARRIER = 0, FIFO_WAIT_BARRIER = 1, FIFO_DESTROY = 2 };

struct cadence_wl_timed_commits {
    struct wl_display *display;
    struct wl_event_queue *queue;
    struct wl_display *display_wrapper;
    struct wl_registry *registry;
    struct wl_proxy *timing_manager, *fifo_manager;
    struct wl_proxy *timer, *fifo;
    struct wl_proxy *presentation;   /* only for its clock, which timestamps are on */
    int have_clock;
    uint32_t clock_id;
};

static void on_clock_id(void *data, struct wl_proxy *presentation, uint32_t clock_id) {
    (void)presentation;
    struct cadence_wl_timed_commits *commits = data;
    commits->have_clock = 1;
    commits->clock_id = clock_id;
}

static const struct {
    void (*clock_id)(void *, struct wl_proxy *, uint32_t);
} presentation_listener = {on_clock_id};

static void on_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)version;
    struct cadence_wl_timed_commits *commits = data;
    if (strcmp(interface, wp_commit_timing_manager_v1_interface.name) == 0 && commits->timing_manager == NULL)
        commits->timing_manager = wl_registry_bind(registry, name, &wp_commit_timing_manager_v1_interface, 1);
    if (strcmp(interface, wp_fifo_manager_v1_interface.name) == 0 && commits->fifo_manager == NULL)
        commits->fifo_manager = wl_registry_bind(registry, name, &wp_fifo_manager_v1_interface, 1);
    if (strcmp(interface, wp_presentation_interface.name) == 0 && commits->presentation == NULL) {
        commits->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
        wl_proxy_add_listener(commits->presentation, (void (**)(void))&presentation_listener, commits);
    }
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

/* manager.get_timer / get_fifo(new object, surface): the object for SDL's surface. */
static struct wl_proxy *object_for(struct wl_proxy *manager, const struct wl_interface *interface,
                                   struct wl_surface *surface) {
    if (manager == NULL) return NULL;
    return wl_proxy_marshal_flags(manager, MANAGER_GET, interface, 1, 0, NULL, surface);
}

cadence_wl_timed_commits *cadence_wl_timed_commits_open(struct SDL_Window *window, int *has_fifo, int *has_timing) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    *has_fifo = *has_timing = 0;
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_WAYLAND) return NULL;
    cadence_wl_timed_commits *commits = calloc(1, sizeof *commits);
    if (commits == NULL) return NULL;
    commits->display = info.info.wl.display;
    commits->queue = wl_display_create_queue(commits->display);
    commits->display_wrapper = wl_proxy_create_wrapper(commits->display);
    if (commits->queue == NULL || commits->display_wrapper == NULL) {
        cadence_wl_timed_commits_close(commits);
        return NULL;
    }
    wl_proxy_set_queue((struct wl_proxy *)commits->display_wrapper, commits->queue);
    commits->registry = wl_display_get_registry(commits->display_wrapper);
    wl_registry_add_listener(commits->registry, &registry_listener, commits);
    /* One round trip for the globals (and the binds), one for the clock. */
    if (cadence_wl_roundtrip_within(commits->display, commits->queue, commits->display_wrapper, 1000) != 0
        || cadence_wl_roundtrip_within(commits->display, commits->queue, commits->display_wrapper, 1000) != 0) {
        cadence_wl_timed_commits_close(commits);
        return NULL;
    }
    /* A timestamp is on the presentation clock: CLOCK_MONOTONIC, as the
       caller's times are, or CLOCK_MONOTONIC_RAW (converted); none on another. */
    if (commits->have_clock && (commits->clock_id == CLOCK_MONOTONIC || commits->clock_id == CLOCK_MONOTONIC_RAW))
        commits->timer = object_for(commits->timing_manager, &wp_commit_timer_v1_interface, info.info.wl.surface);
    commits->fifo = object_for(commits->fifo_manager, &wp_fifo_v1_interface, info.info.wl.surface);
    *has_timing = commits->timer != NULL;
    *has_fifo = commits->fifo != NULL;
    return commits;
}

void cadence_wl_timed_commits_next(cadence_wl_timed_commits *commits, int64_t not_before_ns) {
    if (commits->fifo != NULL) {
        wl_proxy_marshal_flags(commits->fifo, FIFO_SET_BARRIER, NULL, 1, 0);
        wl_proxy_marshal_flags(commits->fifo, FIFO_WAIT_BARRIER, NULL, 1, 0);
    }
    if (commits->timer != NULL && not_before_ns > 0) {
        if (commits->clock_id == CLOCK_MONOTONIC_RAW) not_before_ns -= cadence_wl_monotonic_minus_raw();
        uint64_t seconds = (uint64_t)(not_before_ns / 1000000000);
        wl_proxy_marshal_flags(commits->timer, TIMER_SET_TIMESTAMP, NULL, 1, 0, (uint32_t)(seconds >> 32),
                               (uint32_t)(seconds & 0xffffffffu), (uint32_t)(not_before_ns % 1000000000));
    }
}

void cadence_wl_timed_commits_close(cadence_wl_timed_commits *commits) {
    if (commits == NULL) return;
    if (commits->timer != NULL) wl_proxy_marshal_flags(commits->timer, TIMER_DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    if (commits->fifo != NULL) wl_proxy_marshal_flags(commits->fifo, FIFO_DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    if (commits->timing_manager != NULL)
        wl_proxy_marshal_flags(commits->timing_manager, MANAGER_DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    if (commits->fifo_manager != NULL)
        wl_proxy_marshal_flags(commits->fifo_manager, MANAGER_DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    if (commits->presentation != NULL) wl_proxy_destroy(commits->presentation);
    if (commits->registry != NULL) wl_registry_destroy(commits->registry);
    if (commits->display_wrapper != NULL) wl_proxy_wrapper_destroy(commits->display_wrapper);
    if (commits->queue != NULL) wl_event_queue_destroy(commits->queue);
    free(commits);
}
