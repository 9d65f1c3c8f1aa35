#ifndef CADENCE_BOUNDED_REPLY_H
#define CADENCE_BOUNDED_REPLY_H

#include <xcb/xcb.h>

/* The reply to request `sequence`, waiting at most a second; NULL on an
   error, a timeout or a broken connection (present_clock.c). */
void *bounded_reply(xcb_connection_t *connection, unsigned int sequence);

#endif
