#ifndef CAVIF_SHIM_H
#define CAVIF_SHIM_H

// libavif: decoding (with dav1d or libaom, as Debian builds it) and encoding (libaom).
#if !__has_include(<avif/avif.h>)
#error "CAVIF: <avif/avif.h> not found: install Debian's libavif-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <avif/avif.h>
#endif

#endif
