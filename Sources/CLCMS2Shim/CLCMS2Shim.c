#include "CLCMS2Shim.h"

#include <lcms2.h>

#if LCMS_VERSION < 2130
#error "CLCMS2Shim: lcms2 2.13 or later is needed for premultiplied alpha (TYPE_RGBA_8_PREMUL)"
#endif

uint32_t CLCMS2Shim_FormatRGBA8(int premultiplied) {
    return premultiplied ? TYPE_RGBA_8_PREMUL : TYPE_RGBA_8;
}

uint32_t CLCMS2Shim_FormatRGB16(void) {
    return TYPE_RGB_16;
}

#define GRID CLCMS2Shim_LUT_GRID
#define STEP 5  // 255 / (GRID - 1)

void CLCMS2Shim_ApplyLUT(
    const uint16_t *table, uint8_t *pixels, size_t width, size_t rows, size_t bytesPerRow) {
    // Per input level: the node below it and the distance from it in steps of 1/5 (255 sits at 5/5 past node 50,
    // so that the node above always exists).
    int node[256], fraction[256];
    for (int v = 0; v < 256; v++) {
        node[v] = v == 255 ? GRID - 2 : v / STEP;
        fraction[v] = v == 255 ? STEP : v % STEP;
    }
    const int dr = GRID * GRID * 3, dg = GRID * 3, db = 3;
    const int scale = STEP * 257;  // From 16-bit values weighted in fifths to 8 bits.
    for (size_t y = 0; y < rows; y++) {
        uint8_t *p = pixels + y * bytesPerRow;
        for (size_t x = 0; x < width; x++, p += 4) {
            int rx = fraction[p[0]], ry = fraction[p[1]], rz = fraction[p[2]];
            const uint16_t *c000 = table + node[p[0]] * dr + node[p[1]] * dg + node[p[2]] * db;
            // The tetrahedron of the cube that holds the point, by the order of its fractions.
            const uint16_t *c1, *c2;
            int w0, w1, w2, w3;  // Weights of c000, c1, c2, c111, summing to STEP.
            if (rx >= ry) {
                if (ry >= rz) {
                    c1 = c000 + dr, c2 = c000 + dr + dg, w1 = rx - ry, w2 = ry - rz, w3 = rz;
                } else if (rx >= rz) {
                    c1 = c000 + dr, c2 = c000 + dr + db, w1 = rx - rz, w2 = rz - ry, w3 = ry;
                } else {
                    c1 = c000 + db, c2 = c000 + dr + db, w1 = rz - rx, w2 = rx - ry, w3 = ry;
                }
            } else {
                if (rx >= rz) {
                    c1 = c000 + dg, c2 = c000 + dr + dg, w1 = ry - rx, w2 = rx - rz, w3 = rz;
                } else if (ry >= rz) {
                    c1 = c000 + dg, c2 = c000 + dg + db, w1 = ry - rz, w2 = rz - rx, w3 = rx;
                } else {
                    c1 = c000 + db, c2 = c000 + dg + db, w1 = rz - ry, w2 = ry - rx, w3 = rx;
                }
            }
            w0 = STEP - w1 - w2 - w3;
            const uint16_t *c111 = c000 + dr + dg + db;
            for (int c = 0; c < 3; c++) {
                int value = w0 * c000[c] + w1 * c1[c] + w2 * c2[c] + w3 * c111[c];
                p[c] = (uint8_t)((value + scale / 2) / scale);
            }
        }
    }
}
