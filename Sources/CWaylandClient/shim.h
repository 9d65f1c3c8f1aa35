// libwayland-client, for the presentation-time watcher (Sources/CWaylandPresentation).
#ifndef CADENCE_CWAYLANDCLIENT_SHIM_H
#define CADENCE_CWAYLANDCLIENT_SHIM_H
#include <wayland-client.h>
#endif
