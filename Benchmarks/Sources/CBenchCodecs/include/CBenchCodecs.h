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

/// giflib, record by record from memory: every frame (up to `maximumFrames`) decoded row by row with
/// `DGifGetLine` and composited onto one premultiplied RGBA canvas (transparency; disposal "background" clears
/// the frame's rectangle); reports the number of frames drawn. Handles what the benchmark's files use
/// (non-interlaced frames inside the screen, no "restore to previous").
int CBenchCodecs_decodeGIF(const uint8_t *data, size_t size, int maximumFrames, int *frameCount);

/// giflib's encoder: `frameCount` frames of `width`×`height` RGBA (opaque, `frames` one after another),
/// quantised to a 6×6×6 colour cube, with a 40 ms delay and a NETSCAPE2.0 loop when there is more than one
/// frame. `*output` is malloc'ed (free it). For making the benchmark's GIF inputs.
int CBenchCodecs_encodeGIF(const uint8_t *frames, int width, int height, int frameCount, uint8_t **output,
                           size_t *outputSize);

/// libavif: parse, decode the first image, convert to premultiplied RGBA8 into a malloc'ed buffer.
int CBenchCodecs_decodeAVIF(const uint8_t *data, size_t size);

/// libheif: reads the container without copying, decodes the primary image to interleaved RGBA8
/// (heif_colorspace_RGB, heif_chroma_interleaved_RGBA, default options: libheif's own thread settings) and
/// releases it. libheif allocates the pixels itself (no caller buffer in its API).
int CBenchCodecs_decodeHEIC(const uint8_t *data, size_t size);

/// libheif's HEVC encoder (x265 in Debian's build): `width`×`height` RGBA (alpha dropped: an opaque image) at
/// lossy `quality` (0-100; heif-enc's default is 50) with x265's `preset` (e.g. "medium"), 4:2:0 (libheif's
/// default), no thumbnail. `*output` is malloc'ed (free it). For making the benchmark's HEIC input.
int CBenchCodecs_encodeHEIC(const uint8_t *rgba, int width, int height, int quality, const char *preset,
                            uint8_t **output, size_t *outputSize);

/// libjxl: JxlDecoder subscribed to JXL_DEC_BASIC_INFO | JXL_DEC_FULL_IMAGE, the first frame to RGBA8 (native
/// order, rows packed) into a malloc'ed buffer. `threads` 0 decodes on the calling thread (no parallel runner);
/// more sets a JxlThreadParallelRunner with that many threads.
int CBenchCodecs_decodeJXL(const uint8_t *data, size_t size, int threads);

/// Starts libvips once (single-threaded, operation cache off, so every call does the work).
int CBenchCodecs_vipsStart(void);

/// libvips `vips_thumbnail_buffer` to `width` pixels wide, evaluated to memory; reports the output size.
int CBenchCodecs_vipsThumbnail(const uint8_t *data, size_t size, int width, int *outputWidth, int *outputHeight);

#endif
