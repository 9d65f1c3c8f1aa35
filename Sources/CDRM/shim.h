// libdrm for read-only display capability queries: a connector's `vrr_capable`
// property and its CRTC's `VRR_ENABLED`. No DRM master is needed to read them.
#ifndef CADENCE_CDRM_SHIM_H
#define CADENCE_CDRM_SHIM_H

#include <xf86drm.h>
#include <xf86drmMode.h>

#endif
