#include "CLCMS2Shim.h"

#include <lcms2.h>

#if LCMS_VERSION < 2130
#error "CLCMS2Shim: lcms2 2.13 or later is needed for premultiplied alpha (TYPE_RGBA_8_PREMUL)"
#endif

uint32_t CLCMS2Shim_FormatRGBA8(int premultiplied) {
    return premultiplied ? TYPE_RGBA_8_PREMUL : TYPE_RGBA_8;
}

// Four lanes (red, green, blue, unused) of a pixel's sum: one SSE2/NEON register. Byte-aligned so a group loads
// from any address.
typedef int32_t i32x4 __attribute__((vector_size(16), aligned(4)));

void CLCMS2Shim_ApplyMatrixShaper(
    const int32_t *terms, const uint8_t *encode, uint8_t *pixels, size_t width, size_t rows, size_t bytesPerRow) {
    const i32x4 *groups = (const i32x4 *)terms;
    for (size_t y = 0; y < rows; y++) {
        uint8_t *p = pixels + y * bytesPerRow;
        for (size_t x = 0; x < width; x++, p += 4) {
            // One 16-byte load and one add per channel instead of a lookup and three multiplies; the bias in the
            // terms makes the sum an index without a clamp (out-of-gamut entries of `encode` hold 0 and 255).
            i32x4 sum = (groups[p[0]] + groups[256 + p[1]] + groups[512 + p[2]]) >> CLCMS2Shim_TERM_FRACTION_BITS;
            p[0] = encode[sum[0]];
            p[1] = encode[sum[1]];
            p[2] = encode[sum[2]];
        }
    }
}

void CLCMS2Shim_ClampToAlpha(uint8_t *pixels, size_t width, size_t rows, size_t bytesPerRow) {
    for (size_t y = 0; y < rows; y++) {
        uint8_t *p = pixels + y * bytesPerRow;
        for (size_t x = 0; x < width; x++, p += 4) {
            uint8_t a = p[3];
            p[0] = p[0] > a ? a : p[0];
            p[1] = p[1] > a ? a : p[1];
            p[2] = p[2] > a ? a : p[2];
        }
    }
}
