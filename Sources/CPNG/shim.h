#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

// libpng's simplified API (png_image_*), which keeps its setjmp/longjmp inside libpng. libpng-dev puts png.h (a link
// into /usr/include/libpng16, with pngconf.h and pnglibconf.h beside it) on the default include path.
#if !__has_include(<png.h>)
#error "CPNG: <png.h> not found: install Debian's libpng-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <png.h>
#endif

// zlib (which libpng links) inflates and deflates the iCCP chunk's profile, which the simplified API doesn't expose.
#if !__has_include(<zlib.h>)
#error "CPNG: <zlib.h> not found: install Debian's zlib1g-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <zlib.h>
#endif

#endif
