// Reference decode loops written directly against the C libraries, for the benchmark's ratios. Each
// function does what a C program that decodes one image does: allocates the output with malloc, decodes into
// it, and (since the benchmark only times the work) frees it. Returns 0 on success. No limits, minimal error
// handling: not for production.
#ifndef CBENCHCODECS_H
#define CBENCHCODECS_H

#include <stddef.h>
#include <stdint.h>

/// libpng simplified API, straight RGBA.
int CBenchCodecs_decodePNG(const uint8_t *data, size_t size);

/// TurboJPEG `tjDecompress2` to RGBA at 1/`scaleDenominator` (1, 2, 4 or 8); reports the output size.
int CBenchCodecs_decodeJPEG(const uint8_t *data, size_t size, int scaleDenominator, int *width, int *height);

/// libwebp `WebPDecode` to premultiplied RGBA (MODE_rgbA).
int CBenchCodecs_decodeWebP(const uint8_t *data, size_t size);

/// librsvg + cairo: renders the document fitted to `width`×`height` into premultiplied ARGB32.
int CBenchCodecs_renderSVG(const uint8_t *data, size_t size, int width, int height);

/// Starts libvips once (single-threaded, operation cache off, so every call does the work).
int CBenchCodecs_vipsStart(void);

/// libvips `vips_thumbnail_buffer` to `width` pixels wide, evaluated to memory; reports the output size.
int CBenchCodecs_vipsThumbnail(const uint8_t *data, size_t size, int width, int *outputWidth, int *outputHeight);

#endif
