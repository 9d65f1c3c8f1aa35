#include "CWaylandPresentation.h"

#include <string.h>
#include <wayland-client.h>

struct probe {
    int presentation, seat;
};

static void on_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)registry, (void)name, (void)version;
    struct probe *probe = data;
    if (strcmp(interface, "wp_presentation") == 0) probe->presentation = 1;
    if (strcmp(interface, "wl_seat") == 0) probe->seat = 1;
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener listener = {on_global, on_global_remove};

int cadence_wl_probe(int *has_presentation, int *has_seat) {
    struct wl_display *display = wl_display_connect(NULL);
    if (display == NULL) return -1;
    struct probe probe = {0, 0};
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &listener, &probe);
    /* Within a second, or the compositor counts as absent: it is hung, stopped or not one. */
    int answered = cadence_wl_roundtrip_within(display, NULL, display, 1000) == 0;
    /* A connection that broke (the compositor went away meanwhile) is no compositor, not a silent one. */
    int broken = !answered && wl_display_get_error(display) != 0;
    wl_registry_destroy(registry);
    wl_display_disconnect(display);
    if (broken) return -1;
    if (!answered) return -2;
    *has_presentation = probe.presentation;
    *has_seat = probe.seat;
    return 0;
}
