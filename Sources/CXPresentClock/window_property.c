#include "CXPresentClock.h"
#include "bounded_reply.h"

#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

int cadence_x11_variable_refresh(uint32_t window, uint32_t *value) {
    xcb_connection_t *connection = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(connection)) {
        xcb_disconnect(connection);
        return -1;
    }
    static const char name[] = "_VARIABLE_REFRESH";
    /* only_if_exists: an atom no client interned cannot be set on any window. */
    xcb_intern_atom_reply_t *atom =
        bounded_reply(connection, xcb_intern_atom(connection, 1, (uint16_t)strlen(name), name).sequence);
    int result = -1;
    if (atom != NULL && atom->atom == XCB_ATOM_NONE) {
        result = 0;
    } else if (atom != NULL) {
        xcb_get_property_cookie_t cookie =
            xcb_get_property(connection, 0, window, atom->atom, XCB_ATOM_CARDINAL, 0, 1);
        xcb_get_property_reply_t *property = bounded_reply(connection, cookie.sequence);
        if (property != NULL) {
            int length = xcb_get_property_value_length(property);
            if (property->format == 32 && length >= 4) {
                memcpy(value, xcb_get_property_value(property), sizeof *value);
                result = 1;
            } else {
                result = 0;
            }
        }
        free(property);
    }
    free(atom);
    xcb_disconnect(connection);
    return result;
}
