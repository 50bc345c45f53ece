// The loops declared in CNukeKernels.h. Read the header's comment first: these functions are built at -O0 in an
// app's debug build, so they are written for that too. Every vector operation works on 16 lanes where the data
// allows (one statement then does the work of four SSE/NEON instructions, and -O0's store and reload of each
// local is paid once per 16 values); values stay in unnamed temporaries within a statement where they can; the
// innermost loops call nothing.

#include "CNukeKernels.h"

#include <math.h>
#include <string.h>

// Swift never fuses a multiply and an add; neither do these loops, so results are the same in both build
// configurations and on CPUs with fused multiply-add.
#pragma STDC FP_CONTRACT OFF

// Vector types (clang and GCC vector extensions). Byte-aligned and may_alias, so they load and store at any
// address of any buffer, like memcpy.
typedef uint8_t u8x4 __attribute__((vector_size(4), aligned(1), may_alias));
typedef uint8_t u8x16 __attribute__((vector_size(16), aligned(1), may_alias));
typedef uint8_t u8x32 __attribute__((vector_size(32), aligned(1), may_alias));
typedef uint16_t u16x4 __attribute__((vector_size(8), aligned(1), may_alias));
typedef uint16_t u16x16 __attribute__((vector_size(32), aligned(1), may_alias));
typedef uint16_t u16x32 __attribute__((vector_size(64), aligned(1), may_alias));
typedef int32_t i32x4 __attribute__((vector_size(16), aligned(1), may_alias));
typedef int32_t i32x16 __attribute__((vector_size(64), aligned(1), may_alias));
typedef uint32_t u32x4 __attribute__((vector_size(16), aligned(1), may_alias));
typedef uint32_t u32x16 __attribute__((vector_size(64), aligned(1), may_alias));
typedef float f32x4 __attribute__((vector_size(16), aligned(1), may_alias));
typedef float f32x8 __attribute__((vector_size(32), aligned(1), may_alias));
typedef float f32x16 __attribute__((vector_size(64), aligned(1), may_alias));
typedef uint64_t u64x4 __attribute__((vector_size(32), aligned(1), may_alias));
typedef uint32_t u32 __attribute__((aligned(1), may_alias));
typedef uint64_t u64 __attribute__((aligned(1), may_alias));

// Adding 1.5 × 2²³ to a float in 0…65535 leaves it rounded to the nearest integer (ties to even) in the low bits
// of its mantissa, without a call to a rounding function.
#define ROUNDING_BIAS 12582912.0f

// MARK: - Resize

// The (unnormalised) weight of `filter` at distance `x`, in the same operations as the Swift definitions it
// replaced, so the taps are the same to the last bit.
static double FilterWeight(CNukeKernels_Filter filter, double x) {
    x = fabs(x);
    switch (filter) {
    case CNukeKernels_FilterLanczos3: {
        if (x < 1e-9) {
            return 1;
        }
        if (!(x < 3)) {
            return 0;
        }
        const double px = 3.141592653589793 * x;
        return 3 * sin(px) * sin(px / 3) / (px * px);
    }
    case CNukeKernels_FilterCatmullRom:
        if (x < 1) {
            return (1.5 * x - 2.5) * x * x + 1;
        }
        if (x < 2) {
            return ((-0.5 * x + 2.5) * x - 4) * x + 2;
        }
        return 0;
    case CNukeKernels_FilterTriangle:
        return 1 - x > 0 ? 1 - x : 0;
    }
    return 0;
}

ptrdiff_t CNukeKernels_ResampleWindow(
    CNukeKernels_Filter filter, double centre, double radius, double filterScale, ptrdiff_t inputCount,
    ptrdiff_t capacity, ptrdiff_t *start, float *weights) {
    ptrdiff_t lo = (ptrdiff_t)ceil(centre - radius);
    ptrdiff_t hi = (ptrdiff_t)floor(centre + radius);
    lo = lo > 0 ? lo : 0;
    hi = hi < inputCount - 1 ? hi : inputCount - 1;
    if (lo > hi) {  // Far outside the input; can only happen with degenerate regions.
        lo = (ptrdiff_t)round(centre);
        lo = lo < inputCount - 1 ? lo : inputCount - 1;
        lo = lo > 0 ? lo : 0;
        hi = lo;
    }
    // Trim zero taps at the ends (the filters are zero at their support).
    while (hi > lo && FilterWeight(filter, ((double)hi - centre) / filterScale) == 0) {
        hi--;
    }
    while (lo < hi && FilterWeight(filter, ((double)lo - centre) / filterScale) == 0) {
        lo++;
    }
    hi = hi - lo < capacity ? hi : lo + capacity - 1;
    double sum = 0;
    for (ptrdiff_t i = lo; i <= hi; i++) {
        sum += FilterWeight(filter, ((double)i - centre) / filterScale);
    }
    for (ptrdiff_t i = lo; i <= hi; i++) {
        weights[i - lo] = fabs(sum) < 1e-12
            ? (i == lo ? 1.0f : 0.0f)
            : (float)(FilterWeight(filter, ((double)i - centre) / filterScale) / sum);
    }
    *start = lo;
    return hi - lo + 1;
}

// One cell of `CNukeKernels_BoxReduceRow`: the sum of its columns' sums, four columns per statement, then the rest
// one by one.
static void ReduceCell(
    const uint16_t *sums, ptrdiff_t columnCount, ptrdiff_t cellOffset, ptrdiff_t factor, ptrdiff_t cell,
    ptrdiff_t rowCount, float *destination) {
    ptrdiff_t start = cellOffset + cell * factor;
    ptrdiff_t end = start + factor;
    start = start < 0 ? 0 : start;
    end = end > columnCount ? columnCount : end;
    const ptrdiff_t columns = end - start;
    const uint16_t *column = sums + start * 4;
    i32x16 wide = {0};
    ptrdiff_t c = 0;
    for (; c + 4 <= columns; c += 4, column += 16) {
        wide += __builtin_convertvector(*(const u16x16 *)column, i32x16);
    }
    i32x4 total =
        (__builtin_shufflevector(wide, wide, 0, 1, 2, 3) + __builtin_shufflevector(wide, wide, 4, 5, 6, 7))
        + (__builtin_shufflevector(wide, wide, 8, 9, 10, 11) + __builtin_shufflevector(wide, wide, 12, 13, 14, 15));
    for (; c < columns; c++, column += 4) {
        total += __builtin_convertvector(*(const u16x4 *)column, i32x4);
    }
    *(f32x4 *)(destination + cell * 4) =
        __builtin_convertvector(total, f32x4) * (1.0f / ((float)rowCount * (float)columns));
}

void CNukeKernels_BoxReduceRow(
    const uint8_t *source, ptrdiff_t bytesPerRow, ptrdiff_t rowCount, ptrdiff_t columnCount, ptrdiff_t cellOffset,
    ptrdiff_t factor, ptrdiff_t cellCount, uint16_t *sums, float *destination) {
    const ptrdiff_t valueCount = columnCount * 4;
    ptrdiff_t i = 0;
    if (factor == 1 && rowCount == 1) {
        for (; i + 16 <= valueCount; i += 16) {
            *(f32x16 *)(destination + i) = __builtin_convertvector(*(const u8x16 *)(source + i), f32x16);
        }
        for (; i < valueCount; i += 4) {
            *(f32x4 *)(destination + i) = __builtin_convertvector(*(const u8x4 *)(source + i), f32x4);
        }
        return;
    }
    // The sums of each column down the rows, 32 values (8 pixels) at a time, four rows per statement.
    const ptrdiff_t stride2 = bytesPerRow * 2;
    const ptrdiff_t stride3 = bytesPerRow * 3;
    const ptrdiff_t stride4 = bytesPerRow * 4;
    for (; i + 32 <= valueCount; i += 32) {
        const uint8_t *row = source + i;
        u16x32 sum = __builtin_convertvector(*(const u8x32 *)row, u16x32);
        ptrdiff_t r = 1;
        for (row += bytesPerRow; r + 4 <= rowCount; r += 4, row += stride4) {
            sum += (__builtin_convertvector(*(const u8x32 *)row, u16x32)
                       + __builtin_convertvector(*(const u8x32 *)(row + bytesPerRow), u16x32))
                + (__builtin_convertvector(*(const u8x32 *)(row + stride2), u16x32)
                    + __builtin_convertvector(*(const u8x32 *)(row + stride3), u16x32));
        }
        for (; r < rowCount; r++, row += bytesPerRow) {
            sum += __builtin_convertvector(*(const u8x32 *)row, u16x32);
        }
        *(u16x32 *)(sums + i) = sum;
    }
    for (; i < valueCount; i += 4) {
        const uint8_t *row = source + i;
        u16x4 sum = __builtin_convertvector(*(const u8x4 *)row, u16x4);
        for (ptrdiff_t r = 1; r < rowCount; r++) {
            row += bytesPerRow;
            sum += __builtin_convertvector(*(const u8x4 *)row, u16x4);
        }
        *(u16x4 *)(sums + i) = sum;
    }
    if (factor == 1) {
        const float scale = 1.0f / (float)rowCount;
        for (i = 0; i + 16 <= valueCount; i += 16) {
            *(f32x16 *)(destination + i) = __builtin_convertvector(*(const u16x16 *)(sums + i), f32x16) * scale;
        }
        for (; i < valueCount; i += 4) {
            *(f32x4 *)(destination + i) = __builtin_convertvector(*(const u16x4 *)(sums + i), f32x4) * scale;
        }
        return;
    }
    // Whole cells, four at a time: lanes 0–3 sum the columns of the first cell, lanes 4–7 those of the second, and
    // so on, one column of each per statement. Cells cut by the edges of the row, and the last few whole ones, go
    // one at a time.
    const ptrdiff_t firstWhole = cellOffset < 0 ? 1 : 0;
    ptrdiff_t endWhole = (columnCount - cellOffset) / factor;
    endWhole = endWhole < cellCount ? endWhole : cellCount;
    const float wholeScale = 1.0f / ((float)rowCount * (float)factor);
    const ptrdiff_t cellValues = factor * 4;
    ptrdiff_t cell = 0;
    for (; cell < firstWhole; cell++) {
        ReduceCell(sums, columnCount, cellOffset, factor, cell, rowCount, destination);
    }
    for (; cell + 4 <= endWhole; cell += 4) {
        const uint16_t *column = sums + (cellOffset + cell * factor) * 4;
        u32x16 total = {0};
        for (ptrdiff_t c = 0; c < factor; c++, column += 4) {
            total += __builtin_convertvector(
                (u16x16)(u64x4){*(const u64 *)column, *(const u64 *)(column + cellValues),
                    *(const u64 *)(column + 2 * cellValues), *(const u64 *)(column + 3 * cellValues)},
                u32x16);
        }
        *(f32x16 *)(destination + cell * 4) = __builtin_convertvector((i32x16)total, f32x16) * wholeScale;
    }
    for (; cell < cellCount; cell++) {
        ReduceCell(sums, columnCount, cellOffset, factor, cell, rowCount, destination);
    }
}

void CNukeKernels_FilterRow(
    const float *source, const ptrdiff_t *starts, const float *weights, ptrdiff_t taps, ptrdiff_t count,
    float *destination) {
    const float *weight = weights;
    for (ptrdiff_t x = 0; x < count; x++, destination += 4) {
        const float *pixel = source + starts[x] * 4;
        // Four independent sums (lanes 0–3: taps 0, 4, 8, …; lanes 4–7: taps 1, 5, …), so the additions don't
        // wait on each other.
        f32x16 sum = {0};
        ptrdiff_t t = 0;
        for (; t + 4 <= taps; t += 4, pixel += 16, weight += 16) {
            sum += *(const f32x16 *)pixel * *(const f32x16 *)weight;
        }
        f32x4 first = __builtin_shufflevector(sum, sum, 0, 1, 2, 3);
        for (; t < taps; t++, pixel += 4, weight += 4) {
            first += *(const f32x4 *)pixel * *(const f32x4 *)weight;
        }
        *(f32x4 *)destination = (first + __builtin_shufflevector(sum, sum, 4, 5, 6, 7))
            + (__builtin_shufflevector(sum, sum, 8, 9, 10, 11) + __builtin_shufflevector(sum, sum, 12, 13, 14, 15));
    }
}

void CNukeKernels_FilterRows(
    const float *first, const float *second, const ptrdiff_t *starts, const float *weights, ptrdiff_t taps,
    ptrdiff_t count, float *firstDestination, float *secondDestination) {
    const float *weight = weights;
    for (ptrdiff_t x = 0; x < count; x++, firstDestination += 4, secondDestination += 4) {
        const float *pixel0 = first + starts[x] * 4;
        const float *pixel1 = second + starts[x] * 4;
        // Two sums per row: lanes 0–3 take the even taps, lanes 4–7 the odd ones.
        f32x8 sum0 = {0};
        f32x8 sum1 = {0};
        ptrdiff_t t = 0;
        for (; t + 4 <= taps; t += 4, pixel0 += 16, pixel1 += 16, weight += 16) {
            sum0 += *(const f32x8 *)pixel0 * *(const f32x8 *)weight;
            sum1 += *(const f32x8 *)pixel1 * *(const f32x8 *)weight;
            sum0 += *(const f32x8 *)(pixel0 + 8) * *(const f32x8 *)(weight + 8);
            sum1 += *(const f32x8 *)(pixel1 + 8) * *(const f32x8 *)(weight + 8);
        }
        if (t + 2 <= taps) {
            sum0 += *(const f32x8 *)pixel0 * *(const f32x8 *)weight;
            sum1 += *(const f32x8 *)pixel1 * *(const f32x8 *)weight;
            t += 2, pixel0 += 8, pixel1 += 8, weight += 8;
        }
        f32x4 even0 = __builtin_shufflevector(sum0, sum0, 0, 1, 2, 3);
        f32x4 even1 = __builtin_shufflevector(sum1, sum1, 0, 1, 2, 3);
        if (t < taps) {
            even0 += *(const f32x4 *)pixel0 * *(const f32x4 *)weight;
            even1 += *(const f32x4 *)pixel1 * *(const f32x4 *)weight;
            weight += 4;
        }
        *(f32x4 *)firstDestination = even0 + __builtin_shufflevector(sum0, sum0, 4, 5, 6, 7);
        *(f32x4 *)secondDestination = even1 + __builtin_shufflevector(sum1, sum1, 4, 5, 6, 7);
    }
}

void CNukeKernels_WeightedSum(
    const float *const *rows, const float *weights, ptrdiff_t taps, ptrdiff_t count, float *destination) {
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16) {
        f32x16 sum = {0};
        for (ptrdiff_t t = 0; t < taps; t++) {
            sum += *(const f32x16 *)(rows[t] + i) * weights[t];
        }
        *(f32x16 *)(destination + i) = sum;
    }
    for (; i < count; i += 4) {
        f32x4 sum = {0};
        for (ptrdiff_t t = 0; t < taps; t++) {
            sum += *(const f32x4 *)(rows[t] + i) * weights[t];
        }
        *(f32x4 *)(destination + i) = sum;
    }
}

void CNukeKernels_StorePixels(const float *source, ptrdiff_t count, uint8_t *destination) {
    for (ptrdiff_t x = 0; x < count; x++, source += 4, destination += 4) {
        f32x4 pixel = *(const f32x4 *)source;
        if (pixel[3] > 255.5f) {
            pixel *= 255.0f / pixel[3];
        }
        const float alpha = pixel[3] > 255.0f ? 255.0f : pixel[3] > 0.0f ? pixel[3] : 0.0f;
        // Lanes below zero become zero, lanes above alpha become alpha (comparisons give all-ones masks).
        pixel = (f32x4)((i32x4)pixel & ~(pixel < 0.0f));
        const i32x4 above = pixel > alpha;
        pixel = (f32x4)(((i32x4)pixel & ~above) | ((i32x4)((f32x4){0} + alpha) & above));
        *(u8x4 *)destination = __builtin_convertvector((u32x4)(pixel + ROUNDING_BIAS), u8x4);
    }
}

// MARK: - Gaussian blur

// Both sweeps run the three boxes in one pass: step `t` computes box 1 at t, box 2 at t - right2 and box 3 at
// t - right2 - right3 (the lag); box 2 and box 3 subtract the value their input had `width` steps before, kept in
// two rings. The sums are exact integers (unsigned, so the wrap-around of a subtraction that goes below zero
// before the matching addition is defined); each output is `round(sum3 * scale)`.

// The horizontal sweep of four rows at once, `width` steps of 16 lanes: lanes 0–3 are the channels of row 0,
// lanes 4–7 those of row 1, and so on, so each step reads one pixel of every row and writes one 16-bit pixel to
// every output row.
static void SweepRows(
    const uint8_t *const rows[4], ptrdiff_t width, const CNukeKernels_Boxes *boxes, float scale, int32_t *state,
    uint16_t *const outputs[4]) {
    const ptrdiff_t width1 = boxes->left1 + boxes->right1 + 1;
    const ptrdiff_t width2 = boxes->left2 + boxes->right2 + 1;
    const ptrdiff_t width3 = boxes->left3 + boxes->right3 + 1;
    const uint8_t *const row0 = rows[0], *const row1 = rows[1], *const row2 = rows[2], *const row3 = rows[3];
    uint16_t *const output0 = outputs[0], *const output1 = outputs[1];
    uint16_t *const output2 = outputs[2], *const output3 = outputs[3];
    u32x16 *const ring1 = (u32x16 *)state;
    u32x16 *const ring2 = ring1 + width2;

    // Before the first step every sum sees only copies of pixel 0.
    u32x16 sum1 = __builtin_convertvector(
        (u8x16)(u32x4){*(const u32 *)row0, *(const u32 *)row1, *(const u32 *)row2, *(const u32 *)row3}, u32x16);
    sum1 *= (uint32_t)width1;
    u32x16 sum2 = sum1 * (uint32_t)width2;
    u32x16 sum3 = sum2 * (uint32_t)width3;
    for (ptrdiff_t slot = 0; slot < width2; slot++) {
        ring1[slot] = sum1;
    }
    for (ptrdiff_t slot = 0; slot < width3; slot++) {
        ring2[slot] = sum2;
    }

    const ptrdiff_t lag = boxes->right2 + boxes->right3;
    u32x16 *slot1 = ring1;
    u32x16 *slot2 = ring2;
    for (ptrdiff_t t = 1 - boxes->right1; t < width + lag; t++) {
        ptrdiff_t in = t + boxes->right1;
        ptrdiff_t out = t - boxes->left1 - 1;
        in = (in < width ? in : width - 1) * 4;
        out = (out < 0 ? 0 : out < width ? out : width - 1) * 4;
        sum1 += __builtin_convertvector(
                    (u8x16)(u32x4){*(const u32 *)(row0 + in), *(const u32 *)(row1 + in), *(const u32 *)(row2 + in),
                        *(const u32 *)(row3 + in)},
                    u32x16)
            - __builtin_convertvector(
                (u8x16)(u32x4){*(const u32 *)(row0 + out), *(const u32 *)(row1 + out), *(const u32 *)(row2 + out),
                    *(const u32 *)(row3 + out)},
                u32x16);
        sum2 += sum1 - *slot1;
        *slot1 = sum1;
        sum3 += sum2 - *slot2;
        *slot2 = sum2;
        slot1 = slot1 + 1 == ring2 ? ring1 : slot1 + 1;
        slot2 = slot2 + 1 == ring2 + width3 ? ring2 : slot2 + 1;
        const ptrdiff_t x = (t - lag) * 4;
        if (x >= 0) {
            const u64x4 pixels = (u64x4)__builtin_convertvector(
                (u32x16)(__builtin_convertvector((i32x16)sum3, f32x16) * scale + ROUNDING_BIAS), u16x16);
            *(u64 *)(output0 + x) = pixels[0];
            *(u64 *)(output1 + x) = pixels[1];
            *(u64 *)(output2 + x) = pixels[2];
            *(u64 *)(output3 + x) = pixels[3];
        }
    }
}

ptrdiff_t CNukeKernels_BoxBlurRowsStateCount(const CNukeKernels_Boxes *boxes) {
    return 16 * ((boxes->left2 + boxes->right2 + 1) + (boxes->left3 + boxes->right3 + 1));
}

void CNukeKernels_BoxBlurRows(
    const uint8_t *source, ptrdiff_t bytesPerRow, ptrdiff_t rowCount, ptrdiff_t width,
    const CNukeKernels_Boxes *boxes, float scale, int32_t *state, uint16_t *destination) {
    for (ptrdiff_t first = 0; first < rowCount; first += 4) {
        // A last group of fewer than four rows repeats its last row; the copies write the same values twice.
        const uint8_t *rows[4];
        uint16_t *outputs[4];
        for (ptrdiff_t r = 0; r < 4; r++) {
            const ptrdiff_t row = first + r < rowCount ? first + r : rowCount - 1;
            rows[r] = source + row * bytesPerRow;
            outputs[r] = destination + row * width * 4;
        }
        SweepRows(rows, width, boxes, scale, state, outputs);
    }
}

ptrdiff_t CNukeKernels_BoxBlurColumnsStateCount(const CNukeKernels_Boxes *boxes, ptrdiff_t lanes) {
    return lanes * (3 + (boxes->left2 + boxes->right2 + 1) + (boxes->left3 + boxes->right3 + 1));
}

// The vertical sweep: `height` steps of `lanes` lanes, 16 lanes per statement.
void CNukeKernels_BoxBlurColumns(
    const uint16_t *source, ptrdiff_t sourceStride, ptrdiff_t height, ptrdiff_t lanes,
    const CNukeKernels_Boxes *boxes, float scale, int32_t *state, uint8_t *destination,
    ptrdiff_t destinationStride) {
    const ptrdiff_t width1 = boxes->left1 + boxes->right1 + 1;
    const ptrdiff_t width2 = boxes->left2 + boxes->right2 + 1;
    const ptrdiff_t width3 = boxes->left3 + boxes->right3 + 1;
    uint32_t *sum1 = (uint32_t *)state;
    uint32_t *sum2 = sum1 + lanes;
    uint32_t *sum3 = sum2 + lanes;
    uint32_t *ring1 = sum3 + lanes;
    uint32_t *ring2 = ring1 + width2 * lanes;

    // Before the first step every sum sees only copies of row 0.
    for (ptrdiff_t lane = 0; lane < lanes; lane++) {
        sum1[lane] = (uint32_t)source[lane] * (uint32_t)width1;
        sum2[lane] = sum1[lane] * (uint32_t)width2;
        sum3[lane] = sum2[lane] * (uint32_t)width3;
    }
    for (ptrdiff_t slot = 0; slot < width2; slot++) {
        memcpy(ring1 + slot * lanes, sum1, (size_t)lanes * sizeof(uint32_t));
    }
    for (ptrdiff_t slot = 0; slot < width3; slot++) {
        memcpy(ring2 + slot * lanes, sum2, (size_t)lanes * sizeof(uint32_t));
    }

    const ptrdiff_t lag = boxes->right2 + boxes->right3;
    uint32_t *slot1 = ring1;
    uint32_t *slot2 = ring2;
    uint32_t *const end1 = ring1 + width2 * lanes;
    uint32_t *const end2 = ring2 + width3 * lanes;
    for (ptrdiff_t t = 1 - boxes->right1; t < height + lag; t++) {
        ptrdiff_t in = t + boxes->right1;
        ptrdiff_t out = t - boxes->left1 - 1;
        in = in < height ? in : height - 1;
        out = out < 0 ? 0 : out < height ? out : height - 1;
        const uint16_t *entering = source + in * sourceStride;
        const uint16_t *leaving = source + out * sourceStride;
        const ptrdiff_t y = t - lag;
        uint8_t *output = y >= 0 ? destination + y * destinationStride : NULL;
        ptrdiff_t lane = 0;
        for (; lane + 16 <= lanes; lane += 16) {
            const u32x16 s1 = *(u32x16 *)(sum1 + lane)
                + __builtin_convertvector(*(const u16x16 *)(entering + lane), u32x16)
                - __builtin_convertvector(*(const u16x16 *)(leaving + lane), u32x16);
            const u32x16 s2 = *(u32x16 *)(sum2 + lane) + s1 - *(u32x16 *)(slot1 + lane);
            const u32x16 s3 = *(u32x16 *)(sum3 + lane) + s2 - *(u32x16 *)(slot2 + lane);
            *(u32x16 *)(sum1 + lane) = s1;
            *(u32x16 *)(slot1 + lane) = s1;
            *(u32x16 *)(sum2 + lane) = s2;
            *(u32x16 *)(slot2 + lane) = s2;
            *(u32x16 *)(sum3 + lane) = s3;
            if (output != NULL) {
                *(u8x16 *)(output + lane) = __builtin_convertvector(
                    (u32x16)(__builtin_convertvector((i32x16)s3, f32x16) * scale + ROUNDING_BIAS), u8x16);
            }
        }
        for (; lane < lanes; lane += 4) {
            const u32x4 s1 = *(u32x4 *)(sum1 + lane)
                + __builtin_convertvector(*(const u16x4 *)(entering + lane), u32x4)
                - __builtin_convertvector(*(const u16x4 *)(leaving + lane), u32x4);
            const u32x4 s2 = *(u32x4 *)(sum2 + lane) + s1 - *(u32x4 *)(slot1 + lane);
            const u32x4 s3 = *(u32x4 *)(sum3 + lane) + s2 - *(u32x4 *)(slot2 + lane);
            *(u32x4 *)(sum1 + lane) = s1;
            *(u32x4 *)(slot1 + lane) = s1;
            *(u32x4 *)(sum2 + lane) = s2;
            *(u32x4 *)(slot2 + lane) = s2;
            *(u32x4 *)(sum3 + lane) = s3;
            if (output != NULL) {
                *(u8x4 *)(output + lane) = __builtin_convertvector(
                    (u32x4)(__builtin_convertvector((i32x4)s3, f32x4) * scale + ROUNDING_BIAS), u8x4);
            }
        }
        slot1 += lanes;
        slot1 = slot1 == end1 ? ring1 : slot1;
        slot2 += lanes;
        slot2 = slot2 == end2 ? ring2 : slot2;
    }
}
