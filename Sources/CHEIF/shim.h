#ifndef CHEIF_SHIM_H
#define CHEIF_SHIM_H

// libheif: HEIF containers, HEVC decoded by libde265 (Debian's build).
#if !__has_include(<libheif/heif.h>)
#error "CHEIF: <libheif/heif.h> not found: install Debian's libheif-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <libheif/heif.h>
#endif

#endif
