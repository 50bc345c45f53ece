// A small C layer over libheif for DecoderHEIF: copies a decoded interleaved RGBA image into the workspace's
// pixel layout (rows packed, width × 4 bytes), so the per-pixel work stays fast in debug builds too, and reads an
// image's colour description (the raw ICC profile and the nclx values) for colour management.

#ifndef CHEIFSHIM_H
#define CHEIFSHIM_H

#include <libheif/heif.h>
#include <stddef.h>
#include <stdint.h>

/// Copies the interleaved RGBA plane of `image` (decoded as heif_colorspace_RGB, heif_chroma_interleaved_RGBA)
/// into `output`: `width` × `height` × 4 bytes, rows packed. When `opaque` is non-zero every alpha byte is set to
/// 255. Returns 0, or -1 if the image has no 8-bit interleaved plane of exactly that size (nothing is written).
int CHEIFShim_CopyRGBA(const struct heif_image *image, int width, int height, int opaque, uint8_t *output);

/// The nclx colour description of an image (ITU-T H.273 code points), as stored in its `colr` box.
typedef struct CHEIFShimNCLX {
    uint16_t colorPrimaries;
    uint16_t transferCharacteristics;
    uint16_t matrixCoefficients;
    uint8_t fullRange;
} CHEIFShimNCLX;

/// The size in bytes of the raw ICC profile of `handle` (a `prof` or `rICC` colour box), 0 if it has none.
size_t CHEIFShim_ICCProfileSize(const struct heif_image_handle *handle);

/// Copies the raw ICC profile of `handle` into `output`, which holds `CHEIFShim_ICCProfileSize(handle)` bytes.
/// Returns libheif's error (heif_error_Color_profile_does_not_exist when the image has no ICC profile).
struct heif_error CHEIFShim_CopyICCProfile(const struct heif_image_handle *handle, uint8_t *output, size_t size);

/// Reads the nclx colour description of `handle` into `nclx`. Returns libheif's error
/// (heif_error_Color_profile_does_not_exist when the file stores none: an nclx inside the HEVC stream is not read).
struct heif_error CHEIFShim_ReadNCLX(const struct heif_image_handle *handle, CHEIFShimNCLX *nclx);

#endif
