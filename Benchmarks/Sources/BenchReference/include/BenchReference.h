#ifndef BENCH_REFERENCE_H
#define BENCH_REFERENCE_H

#include <stdint.h>

/// Starts libvips and turns off its operation cache so that every call does the work. Returns 0 on success.
int bench_reference_init(void);

/// The libvips version, e.g. "8.14.1".
const char *bench_reference_vips_version(void);

/// The cairo version, e.g. "1.16.0".
const char *bench_reference_cairo_version(void);

/// The last libvips error message (empty if none); clears it.
const char *bench_reference_vips_error(void);

/// Resizes `width`×`height` RGBA pixels with `vips_resize` (Lanczos 3, the default kernel) so that the output is
/// `out_width`×`out_height`, and copies the result to `out` (which must hold `out_width * out_height * 4` bytes).
/// Returns 0 on success, -1 on a libvips error, -2 when libvips produced another size.
int bench_vips_resize(const uint8_t *rgba, int width, int height, uint8_t *out, int out_width, int out_height);

/// Blurs `width`×`height` RGBA pixels with `vips_gaussblur` (standard deviation `sigma`) into `out`.
/// Returns 0 on success, -1 on a libvips error.
int bench_vips_gaussblur(const uint8_t *rgba, int width, int height, double sigma, uint8_t *out);

/// Scales `width`×`height` 32-bit pixels to `out_width`×`out_height` with cairo's `CAIRO_FILTER_GOOD` into `out`.
/// Returns 0 on success, -1 on a cairo error.
int bench_cairo_scale(const uint8_t *pixels, int width, int height, uint8_t *out, int out_width, int out_height);

#endif
