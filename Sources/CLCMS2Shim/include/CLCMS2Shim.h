// What ColorLCMS needs from lcms2 that Swift can't import: pixel formats are built by function-like macros
// (TYPE_RGBA_8, TYPE_RGBA_8_PREMUL).

#ifndef CLCMS2SHIM_H
#define CLCMS2SHIM_H

#include <stdint.h>

/// lcms2's pixel format for 8-bit RGBA whose colour is premultiplied by alpha (`premultiplied` non-zero,
/// TYPE_RGBA_8_PREMUL, lcms2 2.13 or later) or straight (TYPE_RGBA_8).
uint32_t CLCMS2Shim_FormatRGBA8(int premultiplied);

#endif
