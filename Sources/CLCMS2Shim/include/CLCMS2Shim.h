// What ColorLCMS needs from lcms2 that Swift can't import, and its one pixel loop: pixel formats are built by
// function-like macros (TYPE_RGBA_8, TYPE_RGB_16, TYPE_RGBA_8_PREMUL), and the lookup-table interpolation that
// converts opaque images runs in C, so that it stays fast in a debug build.

#ifndef CLCMS2SHIM_H
#define CLCMS2SHIM_H

#include <stddef.h>
#include <stdint.h>

/// lcms2's pixel format for 8-bit RGBA whose colour is premultiplied by alpha (`premultiplied` non-zero,
/// TYPE_RGBA_8_PREMUL, lcms2 2.13 or later) or straight (TYPE_RGBA_8).
uint32_t CLCMS2Shim_FormatRGBA8(int premultiplied);

/// lcms2's pixel format for 16-bit RGB (TYPE_RGB_16), in which the lookup table is sampled.
uint32_t CLCMS2Shim_FormatRGB16(void);

/// The number of nodes per axis of the lookup table: one every 5 of the 256 input levels (0, 5, ..., 255).
#define CLCMS2Shim_LUT_GRID 52

/// Converts `rows` rows of `width` opaque RGBA pixels in place through a lookup table of
/// CLCMS2Shim_LUT_GRID³ RGB nodes (16-bit, red slowest, blue fastest) by tetrahedral interpolation, rounding to
/// 8 bits; alpha is left as it is.
void CLCMS2Shim_ApplyLUT(
    const uint16_t *table, uint8_t *pixels, size_t width, size_t rows, size_t bytesPerRow);

#endif
