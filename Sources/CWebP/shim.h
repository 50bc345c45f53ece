#ifndef CWEBP_SHIM_H
#define CWEBP_SHIM_H

// libwebp: still and incremental decoding, encoding, animation decoding through libwebpdemux and animation
// encoding through libwebpmux.
#if !__has_include(<webp/demux.h>)
#error "CWebP: <webp/demux.h> not found: install Debian's libwebp-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>
#endif

#endif
