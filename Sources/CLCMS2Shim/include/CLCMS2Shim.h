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

/// The number of steps of linear light 0...1 in the output table of CLCMS2Shim_ApplyMatrixShaper: steps of
/// 1/16383, fine enough for the sRGB curve's toe (a step there moves the output by 0.2 levels, so the nearest
/// entry is within 0.1), and few enough (16 KB) for the L1 cache beside the term tables (12 KB).
#define CLCMS2Shim_ENCODE_COUNT 16384

/// The fixed-point fraction bits of CLCMS2Shim_ApplyMatrixShaper's terms: a term is a number of output-table
/// steps times 2^CLCMS2Shim_TERM_FRACTION_BITS.
#define CLCMS2Shim_TERM_FRACTION_BITS 8

/// Converts `rows` rows of `width` opaque RGBA pixels in place with a matrix/TRC conversion folded into tables.
/// `terms` holds 3 × 256 groups of 4 values, red's levels first: group `c * 256 + level` is what channel `c` at
/// `level` adds to the output's red, green and blue linear light (its curve's value times the matrix column), in
/// output-table steps in fixed point (the fourth value is unused). The caller biases the terms so that any
/// pixel's sum is at least 0 and, shifted right by CLCMS2Shim_TERM_FRACTION_BITS, an index of `encode` (8-bit
/// sRGB values, with entries below and above linear 0...1 that hold 0 and 255): the loop neither clamps nor
/// checks. Alpha is left as it is.
void CLCMS2Shim_ApplyMatrixShaper(
    const int32_t *terms, const uint8_t *encode, uint8_t *pixels, size_t width, size_t rows, size_t bytesPerRow);

/// Lowers each colour of `rows` rows of `width` premultiplied RGBA pixels to at most its alpha: lcms2's
/// premultiplied format converts a transparent pixel's colour as black, which a profile may map above zero.
void CLCMS2Shim_ClampToAlpha(uint8_t *pixels, size_t width, size_t rows, size_t bytesPerRow);

#endif
