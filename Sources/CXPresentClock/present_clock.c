#include "CXPresentClock.h"
#include "bounded_reply.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/present.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

struct cadence_present_clock {
    xcb_connection_t *connection;
    xcb_special_event_t *events;
    uint32_t window;
    uint32_t event_id;
    uint32_t serial;
    int waiting;       /* a PresentNotifyMSC is unanswered */
    int xwayland;
    /* Answers read but not yet polled (those waited for at the start), oldest first. */
    uint64_t held_msc[2], held_ust[2];
    int held;
};

/* A second for any reply: an X server that does not answer within it is
   hung or stopped, and the watcher gives up rather than hold the game. */
enum { REPLY_TIMEOUT_MS = 1000 };

static int64_t milliseconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* The reply to request `sequence`, waiting at most REPLY_TIMEOUT_MS (the
   *_reply functions wait for ever); NULL on an error, a timeout or a broken
   connection. */
void *bounded_reply(xcb_connection_t *connection, unsigned int sequence) {
    xcb_flush(connection);
    int64_t deadline = milliseconds_now() + REPLY_TIMEOUT_MS;
    while (!xcb_connection_has_error(connection)) {
        void *reply = NULL;
        xcb_generic_error_t *error = NULL;
        if (xcb_poll_for_reply(connection, sequence, &reply, &error)) {
            free(error);
            return reply;
        }
        int64_t left = deadline - milliseconds_now();
        if (left <= 0) return NULL;
        struct pollfd fd = {xcb_get_file_descriptor(connection), POLLIN, 0};
        if (poll(&fd, 1, (int)left) < 0 && errno != EINTR) return NULL;
    }
    return NULL;
}

static int has_extension(xcb_connection_t *connection, const char *name) {
    xcb_query_extension_cookie_t cookie = xcb_query_extension(connection, (uint16_t)strlen(name), name);
    xcb_query_extension_reply_t *reply = bounded_reply(connection, cookie.sequence);
    int present = reply != NULL && reply->present;
    free(reply);
    return present;
}

static void ask_next_msc(cadence_present_clock *clock) {
    /* target 0, divisor 1, remainder 0: the next MSC whatever it is. */
    xcb_present_notify_msc(clock->connection, clock->window, ++clock->serial, 0, 1, 0);
    xcb_flush(clock->connection);
    clock->waiting = 1;
}

/* Reads the answers that have arrived into the held ones (the latest two),
   asking the next question after each; -1 when the connection broke. */
static int read_answers(cadence_present_clock *clock) {
    if (xcb_connection_has_error(clock->connection)) return -1;
    xcb_generic_event_t *event;
    while ((event = xcb_poll_for_special_event(clock->connection, clock->events)) != NULL) {
        xcb_present_generic_event_t *generic = (xcb_present_generic_event_t *)event;
        if (generic->evtype == XCB_PRESENT_EVENT_COMPLETE_NOTIFY) {
            xcb_present_complete_notify_event_t *complete = (xcb_present_complete_notify_event_t *)event;
            if (complete->kind == XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC && complete->serial == clock->serial) {
                if (clock->held == 2) {
                    clock->held_msc[0] = clock->held_msc[1];
                    clock->held_ust[0] = clock->held_ust[1];
                    clock->held = 1;
                }
                clock->held_msc[clock->held] = complete->msc;
                clock->held_ust[clock->held] = complete->ust;
                clock->held += 1;
                clock->waiting = 0;
            }
        }
        free(event);
    }
    if (!clock->waiting) ask_next_msc(clock);
    return 0;
}

/* Waits at most CADENCE_PRESENT_CLOCK_FIRST_WAIT_MS for the answers to the
   first two questions. */
static void wait_for_first_answers(cadence_present_clock *clock) {
    int64_t deadline = milliseconds_now() + CADENCE_PRESENT_CLOCK_FIRST_WAIT_MS;
    while (clock->held < 2 && read_answers(clock) == 0 && clock->held < 2) {
        int64_t left = deadline - milliseconds_now();
        if (left <= 0) return;
        struct pollfd fd = {xcb_get_file_descriptor(clock->connection), POLLIN, 0};
        if (poll(&fd, 1, (int)left) < 0 && errno != EINTR) return;
    }
}

cadence_present_clock *cadence_present_clock_open(const char *display_name, uint32_t window) {
    xcb_connection_t *connection = xcb_connect(display_name, NULL);
    if (xcb_connection_has_error(connection)) {
        xcb_disconnect(connection);
        return NULL;
    }
    xcb_present_query_version_cookie_t version_cookie =
        xcb_present_query_version(connection, XCB_PRESENT_MAJOR_VERSION, XCB_PRESENT_MINOR_VERSION);
    xcb_present_query_version_reply_t *version = bounded_reply(connection, version_cookie.sequence);
    if (version == NULL) {
        xcb_disconnect(connection);
        return NULL;
    }
    free(version);

    cadence_present_clock *clock = calloc(1, sizeof *clock);
    if (clock == NULL) {
        xcb_disconnect(connection);
        return NULL;
    }
    clock->connection = connection;
    clock->window = window;
    clock->xwayland = has_extension(connection, "XWAYLAND");
    clock->event_id = xcb_generate_id(connection);
    /* Complete events for this window come to a queue of their own on this connection. */
    clock->events = xcb_register_for_special_xge(connection, &xcb_present_id, clock->event_id, NULL);
    xcb_present_select_input(connection, clock->event_id, window, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    /* Once a later request is answered, an error for this one (a window
       gone) has arrived too, on the connection's event queue. */
    void *focus = bounded_reply(connection, xcb_get_input_focus(connection).sequence);
    int failed = focus == NULL || clock->events == NULL;
    free(focus);
    xcb_generic_event_t *event;
    while ((event = xcb_poll_for_event(connection)) != NULL) {
        if (event->response_type == 0) failed = 1;
        free(event);
    }
    if (failed) {
        cadence_present_clock_close(clock);
        return NULL;
    }
    ask_next_msc(clock);
    wait_for_first_answers(clock);
    return clock;
}

int cadence_present_clock_poll(cadence_present_clock *clock, uint64_t *msc, uint64_t *ust_us, int capacity) {
    if (read_answers(clock) < 0) return -1;
    int ticks = clock->held < capacity ? clock->held : capacity;
    for (int i = 0; i < ticks; i++) {
        msc[i] = clock->held_msc[clock->held - ticks + i];
        ust_us[i] = clock->held_ust[clock->held - ticks + i];
    }
    clock->held = 0;
    return ticks;
}

int cadence_present_clock_is_xwayland(const cadence_present_clock *clock) { return clock->xwayland; }

void cadence_present_clock_close(cadence_present_clock *clock) {
    if (clock == NULL) return;
    if (clock->events != NULL) xcb_unregister_for_special_event(clock->connection, clock->events);
    xcb_disconnect(clock->connection);
    free(clock);
}
