// The wire description of two staging protocols (wayland-protocols 1.38 and
// later; Debian 12's 1.31 has neither), written from their specifications:
// commit-timing (staging/commit-timing/commit-timing-v1.xml, version 1):
//   wp_commit_timing_manager_v1: destroy, get_timer(new_id wp_commit_timer_v1, object wl_surface)
//   wp_commit_timer_v1: set_timestamp(uint tv_sec_hi, uint tv_sec_lo, uint tv_nsec), destroy
// fifo (staging/fifo/fifo-v1.xml, version 1):
//   wp_fifo_manager_v1: destroy, get_fifo(new_id wp_fifo_v1, object wl_surface)
//   wp_fifo_v1: set_barrier, wait_barrier, destroy
// None of the four has events.
#include <stddef.h>
#include <wayland-client.h>

extern const struct wl_interface wp_commit_timing_manager_v1_interface;
extern const struct wl_interface wp_commit_timer_v1_interface;
extern const struct wl_interface wp_fifo_manager_v1_interface;
extern const struct wl_interface wp_fifo_v1_interface;

static const struct wl_interface *no_types[3] = {NULL};
static const struct wl_interface *get_timer_types[] = {&wp_commit_timer_v1_interface, &wl_surface_interface};
static const struct wl_interface *get_fifo_types[] = {&wp_fifo_v1_interface, &wl_surface_interface};

static const struct wl_message commit_timing_manager_requests[] = {
    {"destroy", "", no_types},
    {"get_timer", "no", get_timer_types},
};
const struct wl_interface wp_commit_timing_manager_v1_interface = {
    "wp_commit_timing_manager_v1", 1, 2, commit_timing_manager_requests, 0, NULL,
};

static const struct wl_message commit_timer_requests[] = {
    {"set_timestamp", "uuu", no_types},
    {"destroy", "", no_types},
};
const struct wl_interface wp_commit_timer_v1_interface = {
    "wp_commit_timer_v1", 1, 2, commit_timer_requests, 0, NULL,
};

static const struct wl_message fifo_manager_requests[] = {
    {"destroy", "", no_types},
    {"get_fifo", "no", get_fifo_types},
};
const struct wl_interface wp_fifo_manager_v1_interface = {
    "wp_fifo_manager_v1", 1, 2, fifo_manager_requests, 0, NULL,
};

static const struct wl_message fifo_requests[] = {
    {"set_barrier", "", no_types},
    {"wait_barrier", "", no_types},
    {"destroy", "", no_types},
};
const struct wl_interface wp_fifo_v1_interface = {
    "wp_fifo_v1", 1, 3, fifo_requests, 0, NULL,
};
