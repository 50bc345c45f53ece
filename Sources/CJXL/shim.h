#ifndef CJXL_SHIM_H
#define CJXL_SHIM_H

// libjxl: decoding and encoding JPEG XL (0.7 on Debian 12), single-threaded (no parallel runner, so no
// libjxl_threads).
#if !__has_include(<jxl/decode.h>)
#error "CJXL: <jxl/decode.h> not found: install Debian's libjxl-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <jxl/decode.h>
#include <jxl/encode.h>
#endif

#endif
