#ifndef CXPRESENTCLOCK_H
#define CXPRESENTCLOCK_H

#include <stdint.h>

/// A watcher of one X window's Present clock, on an X connection of its own,
/// so the game's own (SDL's) connection and event queue are untouched.
///
/// It asks `PresentNotifyMSC` for the window's next MSC; the server answers
/// with a `CompleteNotify` of kind MSC carrying the MSC (the vblank counter)
/// and the UST (its time, CLOCK_MONOTONIC microseconds). Each answer is read
/// without blocking and the next question asked at once, so the caller, polling
/// once a frame, sees a recent (MSC, UST) pair every time. A clock that ticks
/// never answers two questions with the same MSC.
typedef struct cadence_present_clock cadence_present_clock;

/// Opens `display_name` (NULL: `$DISPLAY`) and watches `window`'s clock.
/// NULL when the display cannot be opened or has no Present extension.
/// Its first questions are asked at once, and for at most
/// CADENCE_PRESENT_CLOCK_FIRST_WAIT_MS their answers waited for, kept for the
/// first poll: a clock that answers at once with the same MSC (XWayland 24.1,
/// both answers within 5 ms on a busy machine, not always within 10) is then
/// known before the first frame; one that ticks answers each at a vblank of its own.
cadence_present_clock *cadence_present_clock_open(const char *display_name, uint32_t window);

enum { CADENCE_PRESENT_CLOCK_FIRST_WAIT_MS = 20 };

/// Reads the answers that have arrived and asks for the next MSC when the last
/// question was answered. Returns how many ticks were read (0: none yet), the
/// latest `capacity` of them in `msc` and `ust_us`, oldest first; -1 when the
/// connection broke.
int cadence_present_clock_poll(cadence_present_clock *clock, uint64_t *msc, uint64_t *ust_us, int capacity);

/// 1 when the X server says it is XWayland (the XWAYLAND extension, from
/// XWayland 23.1): its Present clock is then its own, not the compositor's.
int cadence_present_clock_is_xwayland(const cadence_present_clock *clock);

/// Closes the connection and frees the watcher.
void cadence_present_clock_close(cadence_present_clock *clock);

/// Reads `window`'s `_VARIABLE_REFRESH` (a CARDINAL Mesa sets to 1 on a GL
/// window) on a connection of its own to `$DISPLAY`, as the X drivers read it:
/// 1 with `value` set for a 32-bit value of exactly one item, of any type; 2
/// for one they ignore, with its `format` (8, 16 or 32 bits) and `items` set;
/// 0 when the window has none; -1 when it cannot be read (no display, a window
/// gone, a server that does not answer within a second).
int cadence_x11_variable_refresh(uint32_t window, uint32_t *value, uint8_t *format, uint32_t *items);

struct SDL_Window;

/// The X window behind an SDL window (`SDL_GetWindowWMInfo`), or 0 when SDL
/// does not run it on X11. Here rather than in Swift because `SDL_syswm.h`
/// brings Xlib's headers with it.
uint32_t cadence_sdl_x11_window(struct SDL_Window *window);

#endif
