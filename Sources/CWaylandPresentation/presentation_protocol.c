// The wire description of the stable presentation-time protocol
// (wayland-protocols, stable/presentation-time/presentation-time.xml, version 1):
// wp_presentation's requests destroy and feedback(surface, new_id) and its event
// clock_id(uint); wp_presentation_feedback's events sync_output(object),
// presented(7 × uint) and discarded.
#include <stddef.h>
#include <wayland-client.h>

extern const struct wl_interface wp_presentation_interface;
extern const struct wl_interface wp_presentation_feedback_interface;

static const struct wl_interface *no_types[7] = {NULL};
static const struct wl_interface *feedback_types[] = {&wl_surface_interface, &wp_presentation_feedback_interface};
static const struct wl_interface *sync_output_types[] = {&wl_output_interface};

static const struct wl_message presentation_requests[] = {
    {"destroy", "", no_types},
    {"feedback", "on", feedback_types},
};
static const struct wl_message presentation_events[] = {
    {"clock_id", "u", no_types},
};
const struct wl_interface wp_presentation_interface = {
    "wp_presentation", 1, 2, presentation_requests, 1, presentation_events,
};

static const struct wl_message feedback_events[] = {
    {"sync_output", "o", sync_output_types},
    {"presented", "uuuuuuu", no_types},
    {"discarded", "", no_types},
};
const struct wl_interface wp_presentation_feedback_interface = {
    "wp_presentation_feedback", 1, 0, NULL, 3, feedback_events,
};
