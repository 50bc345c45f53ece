#include "CAVIFShim.h"

#include <stdlib.h>
#include <string.h>

static int rotation(const avifImage *image) {
    return (image->transformFlags & AVIF_TRANSFORM_IROT) ? (image->irot.angle & 3) : 0;
}

static int mirror(const avifImage *image) {
    return (image->transformFlags & AVIF_TRANSFORM_IMIR) ? (image->imir.mode & 1) : -1;
}

void CAVIFShim_DisplayedSize(const avifImage *image, uint32_t *width, uint32_t *height) {
    int odd = rotation(image) & 1;
    *width = odd ? image->height : image->width;
    *height = odd ? image->width : image->height;
}

avifResult CAVIFShim_ImageToRGBA(const avifImage *image, uint8_t *output) {
    const int angle = rotation(image), axis = mirror(image);
    const uint32_t width = image->width, height = image->height;
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;
    rgb.alphaPremultiplied = AVIF_TRUE;
    rgb.rowBytes = width * 4;
    const int transforms = angle != 0 || axis >= 0;
    uint8_t *decoded = transforms ? malloc((size_t)rgb.rowBytes * height) : output;
    if (decoded == NULL) return AVIF_RESULT_OUT_OF_MEMORY;
    rgb.pixels = decoded;
    avifResult result = avifImageYUVToRGB(image, &rgb);
    if (result != AVIF_RESULT_OK || !transforms) {
        if (transforms) free(decoded);
        return result;
    }
    // Rotate anticlockwise by angle × 90° into (rotatedWidth × rotatedHeight), then mirror: mode 0 exchanges
    // top and bottom, mode 1 left and right.
    const uint32_t outWidth = (angle & 1) ? height : width, outHeight = (angle & 1) ? width : height;
    const uint32_t *source = (const uint32_t *)decoded;
    for (uint32_t y = 0; y < outHeight; y++) {
        for (uint32_t x = 0; x < outWidth; x++) {
            uint32_t rx = x, ry = y;  // The position in the rotated image before mirroring.
            if (axis == 0) ry = outHeight - 1 - y;
            if (axis == 1) rx = outWidth - 1 - x;
            uint32_t sx, sy;  // The source pixel that anticlockwise rotation moves to (rx, ry).
            switch (angle) {
            case 1: sx = width - 1 - ry; sy = rx; break;
            case 2: sx = width - 1 - rx; sy = height - 1 - ry; break;
            case 3: sx = ry; sy = height - 1 - rx; break;
            default: sx = rx; sy = ry; break;
            }
            uint32_t pixel = source[(size_t)sy * width + sx];
            memcpy(output + ((size_t)y * outWidth + x) * 4, &pixel, 4);
        }
    }
    free(decoded);
    return AVIF_RESULT_OK;
}
