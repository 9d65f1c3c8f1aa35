#include "CXPresentClock.h"
#include "bounded_reply.h"

#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

int cadence_x11_variable_refresh(uint32_t window, uint32_t *value, uint8_t *format, uint32_t *items) {
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
        /* As the X drivers read it (modesetting, amdgpu): 32-bit, exactly one
         * item, of any type; anything else they ignore. Two items asked for,
         * to see a second. */
        xcb_get_property_cookie_t cookie =
            xcb_get_property(connection, 0, window, atom->atom, XCB_GET_PROPERTY_TYPE_ANY, 0, 2);
        xcb_get_property_reply_t *property = bounded_reply(connection, cookie.sequence);
        if (property != NULL) {
            if (property->type == XCB_ATOM_NONE) {
                result = 0;
            } else if (property->format == 32 && property->value_len == 1 && property->bytes_after == 0) {
                memcpy(value, xcb_get_property_value(property), sizeof *value);
                result = 1;
            } else {
                *format = property->format;
                *items = property->value_len + property->bytes_after / (property->format ? property->format / 8 : 1);
                result = 2;
            }
        }
        free(property);
    }
    free(atom);
    xcb_disconnect(connection);
    return result;
}
