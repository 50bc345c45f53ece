// The per-pixel loops of NukeCore's resize and Gaussian blur, in C.
//
// Why C: an app under development builds its packages in debug, where Swift runs at -Onone and its SIMD types
// cost a generic call per operation, so these loops ran 50× to 150× slower than in release. C at -O0 keeps every
// vector operation a few instructions, so the same loops in a debug build stay within a few times of release.
// SwiftPM has no setting that optimises one dependency inside a debug build (unsafeFlags are refused in
// dependencies; clang ignores `__attribute__((optimize))` and `#pragma GCC optimize`, and `#pragma clang optimize
// on` only restores the command line's level), so the loops are written to be fast at -O0 as well:
// wide vector operations (clang/GCC vector extensions) that amortise -O0's loads and stores of locals over 16
// lanes, long expressions rather than named temporaries, no calls in the innermost loops.
//
// NukeCore does the orchestration (planning, bounds, allocation, splitting across cores) and calls these per
// row, per band of rows or per strip of columns. None of them allocates, keeps state between calls or
// touches memory other than what its contract names, so calls on disjoint outputs may run concurrently.
// Pixels are premultiplied RGBA, 8 bits per channel; every count is in the unit its name says (pixels or
// values, where a pixel is four values). Floating-point results are the same in debug and release builds (no
// contraction of multiplies and adds).

#ifndef CNUKEKERNELS_H
#define CNUKEKERNELS_H

#include <stddef.h>
#include <stdint.h>

// MARK: - Resize

/// The reconstruction filters of a resize (their shapes are documented on NukeCore's `ResampleKernel`).
typedef enum {
    CNukeKernels_FilterLanczos3 = 0,
    CNukeKernels_FilterCatmullRom = 1,
    CNukeKernels_FilterTriangle = 2,
} CNukeKernels_Filter;

/// Computes the taps of one output pixel of a resize: `filter`, widened by `filterScale`, sampled at the input
/// pixels within `radius` of `centre` (clipped to `[0, inputCount)`), without zero weights at either end, and
/// normalised to sum to one (in double precision; stored as floats). A window that misses the input (a centre far
/// outside it) becomes the nearest pixel with weight one; weights that sum to zero become a one on the first tap.
///
/// - `inputCount` ≥ 1; `capacity` ≥ 1 bounds the number of taps (`2 * radius + 2` or `inputCount`, whichever is
///   smaller, always suffices).
/// - Returns the number of taps (1 … `capacity`), sets `*start` to the first input pixel, and writes the weights to
///   `weights[0 ..< count]`.
ptrdiff_t CNukeKernels_ResampleWindow(
    CNukeKernels_Filter filter, double centre, double radius, double filterScale, ptrdiff_t inputCount,
    ptrdiff_t capacity, ptrdiff_t *start, float *weights);

/// Produces one row of the box stage of a resize: cell `j` is the average of the source pixels in columns
/// `[cellOffset + j * factor, cellOffset + (j + 1) * factor)` (clipped to `[0, columnCount)`) of the
/// `rowCount` rows.
///
/// - `source`: the first pixel (column 0) of the first of the rows; rows are `bytesPerRow` bytes apart.
/// - `rowCount`: 1 to 257 rows (so that column sums fit in 16 bits).
/// - `columnCount`: pixels per row (at least 1).
/// - `cellOffset`: at most 0 and greater than `-factor`; `factor` ≥ 1; `cellCount` ≥ 1 cells, each of which
///   covers at least one column.
/// - `sums`: scratch for `columnCount * 4` values, overwritten.
/// - `destination`: receives `cellCount * 4` floats (premultiplied RGBA, 0…255).
void CNukeKernels_BoxReduceRow(
    const uint8_t *source, ptrdiff_t bytesPerRow, ptrdiff_t rowCount, ptrdiff_t columnCount, ptrdiff_t cellOffset,
    ptrdiff_t factor, ptrdiff_t cellCount, uint16_t *sums, float *destination);

/// Filters one row of float pixels horizontally: output pixel `x` is
/// `Σ weights[(x * taps + t) * 4 + lane] * source[(starts[x] + t) * 4 + lane]` over `t` in `0..<taps`.
///
/// - `weights`: `count * taps` weights, each repeated in four consecutive floats (one per lane).
/// - `starts`: `count` first input pixels; `source` holds at least `starts[x] + taps` pixels for every `x`.
/// - `destination`: receives `count` pixels (`count * 4` floats); must not overlap `source`.
void CNukeKernels_FilterRow(
    const float *source, const ptrdiff_t *starts, const float *weights, ptrdiff_t taps, ptrdiff_t count,
    float *destination);

/// `CNukeKernels_FilterRow` for two rows with the same taps at once, which loads each weight once for both.
/// Each pixel is summed in two partial sums instead of four, so results may differ from `CNukeKernels_FilterRow`'s
/// in the last bits.
void CNukeKernels_FilterRows(
    const float *first, const float *second, const ptrdiff_t *starts, const float *weights, ptrdiff_t taps,
    ptrdiff_t count, float *firstDestination, float *secondDestination);

/// `destination[i] = Σ weights[t] * rows[t][i]` over `t` in `0..<taps`, for `count` floats (a multiple of 4).
/// `rows` holds `taps` non-null pointers to at least `count` floats each; `destination` overlaps none of them.
void CNukeKernels_WeightedSum(
    const float *const *rows, const float *weights, ptrdiff_t taps, ptrdiff_t count, float *destination);

/// Rounds `count` premultiplied float pixels to 8 bits: alpha is clamped to 0…255 and colour to 0…alpha, so
/// filter overshoot never yields an invalid premultiplied value; when alpha overshoots, the whole pixel is
/// scaled down first, which keeps its colour. Rounds to nearest, ties to even.
void CNukeKernels_StorePixels(const float *source, ptrdiff_t count, uint8_t *destination);

// MARK: - Gaussian blur (three box blurs)

/// Three successive box blurs; box `i` averages the window `[x - left_i, x + right_i]`.
typedef struct {
    ptrdiff_t left1, right1;
    ptrdiff_t left2, right2;
    ptrdiff_t left3, right3;
} CNukeKernels_Boxes;

/// The number of `int32_t` values of scratch that `CNukeKernels_BoxBlurRows` needs:
/// `16 * (width2 + width3)`, where `width_i = left_i + right_i + 1`.
ptrdiff_t CNukeKernels_BoxBlurRowsStateCount(const CNukeKernels_Boxes *boxes);

/// Blurs `rowCount` ≥ 1 rows of `width` ≥ 1 8-bit pixels horizontally with the three boxes, edges extended
/// (clamped), into 16-bit values `round(Σ × scale)`, where Σ is the exact integer result of the three box sums
/// (`scale` is `2^fractionBits / (width1 * width2 * width3)`, and must keep every result within 0…65535). Four
/// rows are blurred together, which amortises the per-step cost.
///
/// - `source`: the first pixel of the first row; rows are `bytesPerRow` bytes apart.
/// - `state`: scratch for `CNukeKernels_BoxBlurRowsStateCount(boxes)` values.
/// - `destination`: receives the rows tightly packed, `width * 4` values apart.
void CNukeKernels_BoxBlurRows(
    const uint8_t *source, ptrdiff_t bytesPerRow, ptrdiff_t rowCount, ptrdiff_t width,
    const CNukeKernels_Boxes *boxes, float scale, int32_t *state, uint16_t *destination);

/// The number of `int32_t` values of scratch that `CNukeKernels_BoxBlurColumns` needs for `lanes` lanes:
/// `lanes * (3 + width2 + width3)`.
ptrdiff_t CNukeKernels_BoxBlurColumnsStateCount(const CNukeKernels_Boxes *boxes, ptrdiff_t lanes);

/// Blurs a strip of `lanes` 16-bit values (a multiple of 4) down `height` ≥ 1 rows with the three boxes, edges
/// extended (clamped), into 8-bit values `round(Σ × scale)` (`scale` is `1 / (width1 * width2 * width3 *
/// 2^fractionBits)`, and must keep every result within 0…255).
///
/// - `source`: the first value of the strip in row 0; rows are `sourceStride` values apart.
/// - `state`: scratch for `CNukeKernels_BoxBlurColumnsStateCount(boxes, lanes)` values.
/// - `destination`: the first value of the strip in output row 0; rows are `destinationStride` bytes apart.
void CNukeKernels_BoxBlurColumns(
    const uint16_t *source, ptrdiff_t sourceStride, ptrdiff_t height, ptrdiff_t lanes,
    const CNukeKernels_Boxes *boxes, float scale, int32_t *state, uint8_t *destination,
    ptrdiff_t destinationStride);

#endif
