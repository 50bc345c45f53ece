#ifndef CGIF_SHIM_H
#define CGIF_SHIM_H

// giflib's decoding API (Debian's libgif-dev ships no pkg-config file). DecoderGIF calls it through CGIFShim.
#if !__has_include(<gif_lib.h>)
#error "CGIF: <gif_lib.h> not found: install Debian's libgif-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <gif_lib.h>
#endif

#endif
