#include "CLCMS2Shim.h"

#include <lcms2.h>

#if LCMS_VERSION < 2130
#error "CLCMS2Shim: lcms2 2.13 or later is needed for premultiplied alpha (TYPE_RGBA_8_PREMUL)"
#endif

uint32_t CLCMS2Shim_FormatRGBA8(int premultiplied) {
    return premultiplied ? TYPE_RGBA_8_PREMUL : TYPE_RGBA_8;
}
