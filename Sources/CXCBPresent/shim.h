// libxcb and its Present extension, for the X Present clock watcher (Sources/CXPresentClock).
#ifndef CADENCE_CXCBPRESENT_SHIM_H
#define CADENCE_CXCBPRESENT_SHIM_H
#include <xcb/xcb.h>
#include <xcb/present.h>
#endif
