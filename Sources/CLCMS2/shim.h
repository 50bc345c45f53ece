#ifndef CLCMS2_SHIM_H
#define CLCMS2_SHIM_H

// Little CMS 2 (lcms2): ICC profiles and colour transforms. liblcms2-dev puts lcms2.h on the default include path.
#if !__has_include(<lcms2.h>)
#error "CLCMS2: <lcms2.h> not found: install Debian's liblcms2-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <lcms2.h>
#endif

#endif
