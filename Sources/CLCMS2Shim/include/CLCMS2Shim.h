// What ColorLCMS needs from lcms2 that Swift can't import: pixel formats are built by function-like macros
// (TYPE_RGBA_8, TYPE_RGBA_8_PREMUL). And its one pixel loop, in C so that it stays fast in a debug build: opaque
// images with a matrix/TRC profile, converted from tables ColorLCMS fills with lcms2's curves and colorants.

#ifndef CLCMS2SHIM_H
#define CLCMS2SHIM_H

#include <stddef.h>
#include <stdint.h>

/// lcms2's pixel format for 8-bit RGBA whose colour is premultiplied by alpha (`premultiplied` non-zero,
/// TYPE_RGBA_8_PREMUL, lcms2 2.13 or later) or straight (TYPE_RGBA_8).
uint32_t CLCMS2Shim_FormatRGBA8(int premultiplied);

/// The number of entries of the output table of CLCMS2Shim_ApplyMatrixShaper: linear light 0...1 in steps of
/// 1/65535, fine enough for the sRGB curve's toe (a step there moves the output by 0.05 levels).
#define CLCMS2Shim_ENCODE_COUNT 65536

/// Converts `rows` rows of `width` opaque RGBA pixels in place: each channel's level through `decode` (3 × 256
/// linear-light values, red's first), the 3×3 row-major `matrix` into sRGB's linear light, clamped to 0...1, and
/// `encode` (CLCMS2Shim_ENCODE_COUNT 8-bit sRGB values) back to levels. Alpha is left as it is.
void CLCMS2Shim_ApplyMatrixShaper(
    const float *decode, const float *matrix, const uint8_t *encode, uint8_t *pixels, size_t width, size_t rows,
    size_t bytesPerRow);

/// Lowers each colour of `rows` rows of `width` premultiplied RGBA pixels to at most its alpha: lcms2's
/// premultiplied format converts a transparent pixel's colour as black, which a profile may map above zero.
void CLCMS2Shim_ClampToAlpha(uint8_t *pixels, size_t width, size_t rows, size_t bytesPerRow);

#endif
