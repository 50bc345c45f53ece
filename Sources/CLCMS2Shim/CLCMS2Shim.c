#include "CLCMS2Shim.h"

#include <lcms2.h>

#if LCMS_VERSION < 2130
#error "CLCMS2Shim: lcms2 2.13 or later is needed for premultiplied alpha (TYPE_RGBA_8_PREMUL)"
#endif

uint32_t CLCMS2Shim_FormatRGBA8(int premultiplied) {
    return premultiplied ? TYPE_RGBA_8_PREMUL : TYPE_RGBA_8;
}

void CLCMS2Shim_ApplyMatrixShaper(
    const float *decode, const float *matrix, const uint8_t *encode, uint8_t *pixels, size_t width, size_t rows,
    size_t bytesPerRow) {
    const float top = (float)(CLCMS2Shim_ENCODE_COUNT - 1);
    for (size_t y = 0; y < rows; y++) {
        uint8_t *p = pixels + y * bytesPerRow;
        for (size_t x = 0; x < width; x++, p += 4) {
            float r = decode[p[0]], g = decode[256 + p[1]], b = decode[512 + p[2]];
            for (int c = 0; c < 3; c++) {
                float v = matrix[3 * c] * r + matrix[3 * c + 1] * g + matrix[3 * c + 2] * b;
                v = v < 0 ? 0 : (v > 1 ? 1 : v);
                p[c] = encode[(int)(v * top + 0.5f)];
            }
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
