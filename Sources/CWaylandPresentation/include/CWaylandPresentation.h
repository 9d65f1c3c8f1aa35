#ifndef CWAYLANDPRESENTATION_H
#define CWAYLANDPRESENTATION_H

#include <stdint.h>

/// A watcher of when an SDL window's frames reach the screen on a native
/// Wayland session, through the compositor's `wp_presentation` (the stable
/// presentation-time protocol). It binds the global on a private event queue
/// of SDL's own `wl_display`, so SDL's queue is untouched, asks for feedback
/// on SDL's `wl_surface` before each present, and reads the answers without
/// blocking.
typedef struct cadence_wl_presentation cadence_wl_presentation;

struct SDL_Window;

/// Starts watching `window`; NULL when SDL does not run it on Wayland, the
/// compositor offers no `wp_presentation`, or its clock is neither CLOCK_MONOTONIC nor CLOCK_MONOTONIC_RAW (converted).
cadence_wl_presentation *cadence_wl_presentation_open(struct SDL_Window *window);

/// Asks for feedback on the next commit of the window's surface: call right
/// before presenting. Returns the frame's ticket (1, 2, …), which its report
/// carries; 0 when the request could not be made.
uint64_t cadence_wl_presentation_request(cadence_wl_presentation *watcher);
/// Takes the oldest per-frame report that `cadence_wl_presentation_poll`
/// read: sets its ticket and, for a frame shown, its time (CLOCK_MONOTONIC
/// nanoseconds). Returns 1 for a frame shown, 0 for one discarded, -1 when
/// no report is waiting. The 64 latest reports are kept.
int cadence_wl_presentation_next_report(cadence_wl_presentation *watcher, uint64_t *ticket, int64_t *time_ns);

/// Reads the feedback that has arrived. Returns how many frames were
/// presented since the last call (0: none) and the latest one's time
/// (CLOCK_MONOTONIC nanoseconds), sequence number (the output's vblank
/// counter, 0 when the compositor has none), refresh interval (nanoseconds,
/// 0 when unknown) and flags (1: vsync, 2: hardware clock, 4: hardware
/// completion, 8: zero copy); -1 when the connection broke.
int cadence_wl_presentation_poll(cadence_wl_presentation *watcher, int64_t *time_ns, uint64_t *sequence,
                                 uint32_t *refresh_ns, uint32_t *flags);

/// How many frames the compositor discarded (never shown) so far.
int cadence_wl_presentation_discarded(const cadence_wl_presentation *watcher);

/// Connects to the compositor `WAYLAND_DISPLAY` names (before SDL starts)
/// and reports whether it offers `wp_presentation` and a `wl_seat`. Returns
/// -1 when there is no compositor to connect to, -2 when the one there did not
/// answer within a second (hung, stopped, or not speaking Wayland), else 0.
int cadence_wl_probe(int *has_presentation, int *has_seat);

struct wl_display;
struct wl_event_queue;

/// A round trip that gives up: sends `wl_display.sync` through `requester`
/// (the display, or a wrapper of it whose queue is `queue`) and dispatches
/// `queue` (NULL: the default queue) until the answer came, at most
/// `timeout_ms`. Returns 0 when answered, -1 on a timeout or a broken connection.
int cadence_wl_roundtrip_within(struct wl_display *display, struct wl_event_queue *queue,
                                struct wl_display *requester, int timeout_ms);

/// SDL's `wl_display` for `window`, NULL when SDL does not run it on Wayland.
struct wl_display *cadence_wl_display_of(struct SDL_Window *window);

/// SDL 3's `wl_display` as soon as its video runs on Wayland, before any
/// window (SDL 2 hands it out only through a window); NULL when the SDL 2 API
/// does not run on SDL 3, or SDL 3's video is not Wayland's.
struct wl_display *cadence_wl_display_of_sdl3_video(void);

/// The error that broke the connection to the compositor (an errno value:
/// EPROTO for a protocol error it sent, EPIPE when it closed the connection,
/// others libwayland met on its side), 0 while it holds; safe from any thread.
int cadence_wl_display_error(struct wl_display *display);

/// The descriptor of this process's connection to the server listening on
/// the Unix socket `path` (a path, or the same name in the abstract
/// namespace): the socket whose peer address is that path, the newest when
/// several are; -1 when none is. Sets `*inode` to the socket's inode, which
/// tells it from a later descriptor given the same number. SDL 2 hands out
/// its `wl_display` only through a window; this finds the connection as soon
/// as SDL's video is up.
int cadence_server_socket_find(const char *path, unsigned long *inode);

/// 1 when the server closed the connection `fd` holds (it went away, or
/// closed it on a protocol error), 0 while it holds, -1 when `fd` is no longer
/// the socket of inode `inode`. Reads nothing; safe from any thread.
int cadence_server_socket_closed(int fd, unsigned long inode);

/// Until `cadence_fault_guard_end`, a segmentation fault (or bus error)
/// while the connection `fd` (of inode `inode`; -2: one already gone) is closed writes `message` to
/// standard error and ends the process with status 1: the graphics driver
/// crashed on a server that went away. Any other fault goes to the handler
/// installed before.
void cadence_fault_guard_begin(int fd, unsigned long inode, const char *message);
/// The same before SDL's connection exists (SDL starting its video): a fault
/// while the Wayland compositor or the X server at these socket paths (either
/// may be NULL) no longer listens ends the process with `message` and status 1.
void cadence_fault_guard_begin_servers(const char *wayland, const char *x, const char *message);
/// Puts the handlers from before `cadence_fault_guard_begin` back.
void cadence_fault_guard_end(void);

/// 1 when a server accepts connections on the Unix socket `path`, 0 when none
/// does; asked of the kernel's table of sockets, without connecting, where the
/// server is in this process's network namespace. Async-signal-safe.
int cadence_server_listening(const char *path);

/// The protocol error that broke `display`'s connection: its code, with the
/// interface's name in `interface` (`length` bytes) and the object's id in
/// `*object`; -1 when the connection holds or broke otherwise.
int cadence_wl_protocol_error(struct wl_display *display, char *interface, int length, uint32_t *object);

/// The objects that time an SDL window's commits on a compositor that offers
/// them (staging protocols): a `wp_commit_timer_v1`, so a commit is shown as
/// close as possible to, and never before, a given time, and a `wp_fifo_v1`,
/// so each commit is shown for at least one refresh before the next replaces
/// it (none is dropped). Bound on a private queue of SDL's `wl_display`.
typedef struct cadence_wl_timed_commits cadence_wl_timed_commits;

/// Binds what the compositor offers for `window`'s surface and says which
/// (`has_fifo`, `has_timing`); NULL when SDL does not run it on Wayland or
/// the compositor did not answer within a second.
cadence_wl_timed_commits *cadence_wl_timed_commits_open(struct SDL_Window *window, int *has_fifo, int *has_timing);

/// Constrains the surface's next commit, to be made right after (SDL's
/// present): it waits for the previous commit's refresh (fifo) and, when
/// `not_before_ns` > 0, is shown no sooner than that time on the
/// presentation clock (CLOCK_MONOTONIC nanoseconds). One call per commit:
/// a second timestamp before the commit is a protocol error.
void cadence_wl_timed_commits_next(cadence_wl_timed_commits *commits, int64_t not_before_ns);

/// Destroys the objects (constraints already sent stay) and frees them.
void cadence_wl_timed_commits_close(cadence_wl_timed_commits *commits);

/// Stops watching and frees the watcher.
void cadence_wl_presentation_close(cadence_wl_presentation *watcher);

#endif
