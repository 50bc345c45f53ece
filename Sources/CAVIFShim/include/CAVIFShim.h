// A small C layer over libavif for DecoderAVIF: converts a decoded avifImage (8, 10 or 12 bits, any YUV format,
// with or without alpha) to premultiplied RGBA8 with libavif's converter, and applies the image's irot/imir
// transforms, so the per-pixel loops stay fast in debug builds too.

#ifndef CAVIFSHIM_H
#define CAVIFSHIM_H

#include <avif/avif.h>
#include <stdint.h>

/// The size of `image` as displayed: width and height swapped when an irot of 90° or 270° applies.
void CAVIFShim_DisplayedSize(const avifImage *image, uint32_t *width, uint32_t *height);

/// Writes `image` as premultiplied RGBA8 into `output` (displayed width × height × 4 bytes, rows packed), with
/// irot (anticlockwise) then imir applied, as ISO/IEC 23008-12 orders them. Returns libavif's result.
avifResult CAVIFShim_ImageToRGBA(const avifImage *image, uint8_t *output);

#endif
