#include "CGIFShim.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

/// GIF's LZW codes have at most 12 bits.
enum { LZWTableSize = 4096 };

/// The bytes giflib reads, through `readMemory`.
typedef struct {
    const uint8_t *bytes;
    size_t count;
    size_t position;
} MemorySource;

struct CGIFShim_Reader {
    GifFileType *gif;
    MemorySource source;
    int error;
    int32_t loopCount;
    /// The graphic control extension waiting for the next image descriptor.
    int32_t pendingDisposal, pendingDelay, pendingTransparentIndex;
    /// The number of frames drawn, and the previous frame's disposal and clipped rectangle.
    int32_t drawnCount;
    int32_t previousDisposal;
    int32_t previousX0, previousY0, previousX1, previousY1;
    /// The canvas under the previous frame's rectangle, when its disposal is "restore to previous".
    uint8_t *saved;
    size_t savedCapacity;
    int savedValid;
    /// The LZW code table (entries past the clear code: a prefix code, a last byte, a first byte, a length),
    /// and the line buffer the strings are written into.
    uint16_t prefix[LZWTableSize];
    uint8_t suffix[LZWTableSize];
    uint8_t firstByte[LZWTableSize];
    uint16_t length[LZWTableSize];
    uint8_t *line;
    size_t lineCapacity;
};

/// giflib's InputFunc: copies up to `length` bytes; a short read makes giflib report D_GIF_ERR_READ_FAILED.
static int readMemory(GifFileType *gif, GifByteType *buffer, int length) {
    MemorySource *source = (MemorySource *)gif->UserData;
    if (length <= 0) return 0;
    size_t remaining = source->count - source->position;
    size_t count = (size_t)length < remaining ? (size_t)length : remaining;
    memcpy(buffer, source->bytes + source->position, count);
    source->position += count;
    return (int)count;
}

CGIFShim_Reader *CGIFShim_ReaderCreate(const uint8_t *bytes, size_t count, int *error) {
    CGIFShim_Reader *reader = calloc(1, sizeof(CGIFShim_Reader));
    if (reader == NULL) {
        *error = D_GIF_ERR_NOT_ENOUGH_MEM;
        return NULL;
    }
    reader->source = (MemorySource){bytes, count, 0};
    reader->loopCount = -1;
    reader->pendingTransparentIndex = -1;
    int openError = 0;
    reader->gif = DGifOpen(&reader->source, readMemory, &openError);
    if (reader->gif == NULL) {
        *error = openError;
        free(reader);
        return NULL;
    }
    return reader;
}

void CGIFShim_ReaderDestroy(CGIFShim_Reader *reader) {
    if (reader == NULL) return;
    int error = 0;
    DGifCloseFile(reader->gif, &error);
    free(reader->saved);
    free(reader->line);
    free(reader);
}

int32_t CGIFShim_ReaderScreenWidth(const CGIFShim_Reader *reader) { return reader->gif->SWidth; }
int32_t CGIFShim_ReaderScreenHeight(const CGIFShim_Reader *reader) { return reader->gif->SHeight; }
int32_t CGIFShim_ReaderLoopCount(const CGIFShim_Reader *reader) { return reader->loopCount; }
int CGIFShim_ReaderError(const CGIFShim_Reader *reader) { return reader->error; }

static int fail(CGIFShim_Reader *reader) {
    reader->error = reader->gif->Error != 0 ? reader->gif->Error : D_GIF_ERR_READ_FAILED;
    return CGIFShim_ERROR;
}

/// Reads one extension record: the graphic control extension and the looping application extension are
/// kept, every other extension is skipped.
static int readExtension(CGIFShim_Reader *reader) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(reader->gif, &code, &block) == GIF_ERROR) return fail(reader);
    int isLoopExtension = 0;
    if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4) {
        int packed = block[1];
        reader->pendingDisposal = (packed >> 2) & 0x07;
        reader->pendingDelay = block[2] | (block[3] << 8);
        reader->pendingTransparentIndex = (packed & 0x01) ? block[4] : -1;
    } else if (code == APPLICATION_EXT_FUNC_CODE && block != NULL && block[0] >= 11
               && (memcmp(block + 1, "NETSCAPE2.0", 11) == 0 || memcmp(block + 1, "ANIMEXTS1.0", 11) == 0)) {
        isLoopExtension = 1;
    }
    while (block != NULL) {
        if (DGifGetExtensionNext(reader->gif, &block) == GIF_ERROR) return fail(reader);
        // The looping sub-block: id 1, then the loop count (little-endian). The first one in the file counts.
        if (isLoopExtension && block != NULL && block[0] >= 3 && (block[1] & 0x07) == 1 && reader->loopCount < 0) {
            reader->loopCount = block[2] | (block[3] << 8);
            isLoopExtension = 0;
        }
    }
    return 0;
}

int CGIFShim_ReaderNextFrame(CGIFShim_Reader *reader, CGIFShim_Frame *frame) {
    GifFileType *gif = reader->gif;
    for (;;) {
        GifRecordType type = UNDEFINED_RECORD_TYPE;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) return fail(reader);
        switch (type) {
        case IMAGE_DESC_RECORD_TYPE:
            if (DGifGetImageDesc(gif) == GIF_ERROR) return fail(reader);
            // giflib keeps a copy of every descriptor in SavedImages (for DGifSlurp); drop it so that memory
            // stays constant however many frames the file has.
            GifFreeSavedImages(gif);
            gif->SavedImages = NULL;
            gif->ImageCount = 0;
            frame->left = gif->Image.Left;
            frame->top = gif->Image.Top;
            frame->width = gif->Image.Width;
            frame->height = gif->Image.Height;
            frame->isInterlaced = gif->Image.Interlace ? 1 : 0;
            frame->hasLocalColorTable = gif->Image.ColorMap != NULL;
            frame->disposal = reader->pendingDisposal;
            frame->delay = reader->pendingDelay;
            frame->transparentIndex = reader->pendingTransparentIndex;
            reader->pendingDisposal = 0;
            reader->pendingDelay = 0;
            reader->pendingTransparentIndex = -1;
            return CGIFShim_FRAME;
        case EXTENSION_RECORD_TYPE:
            if (readExtension(reader) != 0) return CGIFShim_ERROR;
            break;
        case TERMINATE_RECORD_TYPE:
            return CGIFShim_END;
        default:
            reader->error = D_GIF_ERR_WRONG_RECORD;
            return CGIFShim_ERROR;
        }
    }
}

int CGIFShim_ReaderSkipFrame(CGIFShim_Reader *reader) {
    int codeSize = 0;
    GifByteType *block = NULL;
    if (DGifGetCode(reader->gif, &codeSize, &block) == GIF_ERROR) return fail(reader);
    while (block != NULL) {
        if (DGifGetCodeNext(reader->gif, &block) == GIF_ERROR) return fail(reader);
    }
    return 0;
}

static int32_t clamp64(int64_t value, int32_t low, int32_t high) {
    return (int32_t)(value < low ? low : (value > high ? high : value));
}

/// Grows `*buffer` (of `*capacity` bytes) to at least `needed` bytes, keeping its contents. Returns 0, or
/// CGIFShim_ERROR with D_GIF_ERR_NOT_ENOUGH_MEM (the buffer is then unchanged).
static int reserve(CGIFShim_Reader *reader, uint8_t **buffer, size_t *capacity, size_t needed) {
    if (needed <= *capacity) return 0;
    uint8_t *grown = realloc(*buffer, needed);
    if (grown == NULL) {
        reader->error = D_GIF_ERR_NOT_ENOUGH_MEM;
        return CGIFShim_ERROR;
    }
    *buffer = grown;
    *capacity = needed;
    return 0;
}

/// Where decoded rows go: the canvas, the frame's clipped rectangle on it, and the palette.
typedef struct {
    uint8_t *canvas;
    size_t canvasStride;
    int32_t left, top;
    int32_t x0, x1, y0, y1;
    const uint32_t *palette;
    int transparent;
} FrameTarget;

/// Draws one decoded row of palette indices (the frame's full width) at frame row `y`, clipped.
static void drawRow(const FrameTarget *target, const uint8_t *indices, int32_t y) {
    const int32_t canvasY = target->top + y;
    if (canvasY < target->y0 || canvasY >= target->y1 || target->x1 <= target->x0) return;
    uint8_t *destination = target->canvas + (size_t)canvasY * target->canvasStride + (size_t)target->x0 * 4;
    const uint8_t *source = indices + (target->x0 - target->left);
    const int32_t count = target->x1 - target->x0;
    const uint32_t *palette = target->palette;
    if (target->transparent < 0) {
        for (int32_t x = 0; x < count; x++) memcpy(destination + (size_t)x * 4, &palette[source[x]], 4);
    } else {
        const uint8_t transparent = (uint8_t)target->transparent;
        for (int32_t x = 0; x < count; x++) {
            if (source[x] != transparent) memcpy(destination + (size_t)x * 4, &palette[source[x]], 4);
        }
    }
}

/// The frame's LZW codes, read across its data sub-blocks through giflib (which keeps the file position).
typedef struct {
    GifFileType *gif;
    const GifByteType *block;  // block[0] is the length, block[1...] the bytes
    int length, position;
    int hasEnded;  // the zero-length terminator block was read
    uint64_t bits;
    int bitCount;
} CodeReader;

/// Makes `reader->bitCount` at least `count`. Returns 0, 1 when the sub-blocks end first, or CGIFShim_ERROR
/// when giflib fails to read one.
static int fillBits(CodeReader *reader, int count) {
    while (reader->bitCount < count) {
        if (reader->position >= reader->length) {
            if (reader->hasEnded) return 1;
            GifByteType *block = NULL;
            if (DGifGetCodeNext(reader->gif, &block) == GIF_ERROR) return CGIFShim_ERROR;
            if (block == NULL) {
                reader->hasEnded = 1;
                return 1;
            }
            reader->block = block;
            reader->length = block[0];
            reader->position = 0;
            continue;
        }
        // Whole bytes while the block has them (at most 7 at a time into the 64-bit buffer).
        while (reader->bitCount <= 56 && reader->position < reader->length) {
            reader->bits |= (uint64_t)reader->block[1 + reader->position] << reader->bitCount;
            reader->position += 1;
            reader->bitCount += 8;
        }
    }
    return 0;
}

/// Decodes the current frame's LZW data (GIF's variant: codes least significant bit first, 12 bits at most, no
/// "early change", a full table kept until the next clear code) and draws each row as it completes.
///
/// The strings of the code table are written straight into a line buffer, back to front along the prefix
/// chain, so a code costs one pass over its string. It fails as giflib's own decoder does: a code past the next
/// free entry is an image defect; an end-of-information code, or the end of the data, before the last pixel is
/// a truncation. Data after the last pixel is skipped.
static int decodeRows(CGIFShim_Reader *reader, const CGIFShim_Frame *frame, const FrameTarget *target) {
    GifFileType *gif = reader->gif;
    int minimumCodeSize = 0;
    GifByteType *firstBlock = NULL;
    // giflib has read the minimum code size with the image descriptor and refused any above 8 (with its
    // D_GIF_ERR_READ_FAILED); the check below only guards this function's own assumption.
    if (DGifGetCode(gif, &minimumCodeSize, &firstBlock) == GIF_ERROR) return fail(reader);
    CodeReader codes = {gif, firstBlock, firstBlock != NULL ? firstBlock[0] : 0, 0, firstBlock == NULL, 0, 0};
    if (minimumCodeSize < 0 || minimumCodeSize > 8) {
        reader->error = D_GIF_ERR_IMAGE_DEFECT;
        return CGIFShim_ERROR;
    }

    const size_t width = (size_t)frame->width;
    // Room for a row being filled (under `width` bytes), plus the longest string, twice over: compacting when
    // the end is reached then moves fewer bytes than were appended since the last time.
    const size_t capacity = 2 * (width + LZWTableSize);
    if (reserve(reader, &reader->line, &reader->lineCapacity, capacity) != 0) return CGIFShim_ERROR;
    uint8_t *line = reader->line;
    uint16_t *prefix = reader->prefix;
    uint8_t *suffix = reader->suffix, *firstByte = reader->firstByte;
    uint16_t *length = reader->length;

    const int clearCode = 1 << minimumCodeSize, endCode = clearCode + 1;
    for (int code = 0; code < clearCode; code++) {
        suffix[code] = firstByte[code] = (uint8_t)code;
        length[code] = 1;
    }
    // `running` follows giflib's count of codes read since the clear (the next free entry plus one, once a code
    // has been read); the code width grows when it passes the largest code of the current width. For minimum
    // code sizes of 2 and more that is the usual rule (grow when the next free entry needs another bit); for 0
    // and 1, which the format doesn't allow but files have, it reads the widths giflib reads.
    int codeSize = minimumCodeSize + 1, nextCode = endCode + 1, running = endCode + 1, previous = -1;
    size_t start = 0, end = 0;  // the undrawn bytes of `line`

    static const int32_t passStart[4] = {0, 4, 2, 1}, passStep[4] = {8, 8, 4, 2};
    const int32_t height = frame->height;
    int pass = 0;
    int32_t y = 0, rowsLeft = height;
    int32_t currentStep = frame->isInterlaced ? passStep[0] : 1;

    while (rowsLeft > 0) {
        const int status = fillBits(&codes, codeSize);
        if (status == CGIFShim_ERROR) return fail(reader);
        if (status == 1) {
            reader->error = D_GIF_ERR_READ_FAILED;  // the data ended before the last pixel
            return CGIFShim_ERROR;
        }
        const int code = (int)(codes.bits & ((1u << codeSize) - 1));
        codes.bits >>= codeSize;
        codes.bitCount -= codeSize;

        if (code == clearCode) {
            codeSize = minimumCodeSize + 1;
            nextCode = running = endCode + 1;
            previous = -1;
            continue;
        }
        if (running <= LZWTableSize) {
            running += 1;
            if (running > (1 << codeSize) && codeSize < 12) codeSize += 1;
        }
        if (code == endCode) {
            reader->error = D_GIF_ERR_EOF_TOO_SOON;
            return CGIFShim_ERROR;
        }
        if (code > nextCode || (code == nextCode && previous < 0)) {
            reader->error = D_GIF_ERR_IMAGE_DEFECT;
            return CGIFShim_ERROR;
        }

        // The string's length, then the line has room for it.
        const int isKnown = code < nextCode;
        const size_t count = isKnown ? length[code] : (size_t)length[previous] + 1;
        if (end + count > capacity) {
            memmove(line, line + start, end - start);
            end -= start;
            start = 0;
        }
        // Back to front: the last byte, then along the prefix chain.
        uint8_t *out = line + end + count - 1;
        int walk = code;
        if (!isKnown) {
            *out-- = firstByte[previous];  // KwKwK: the previous string and its own first byte
            walk = previous;
        }
        while (walk >= clearCode) {
            *out-- = suffix[walk];
            walk = prefix[walk];
        }
        *out = (uint8_t)walk;
        end += count;

        if (previous >= 0 && nextCode < LZWTableSize) {
            prefix[nextCode] = (uint16_t)previous;
            suffix[nextCode] = firstByte[isKnown ? code : previous];
            firstByte[nextCode] = firstByte[previous];
            length[nextCode] = (uint16_t)(length[previous] + 1);
            nextCode += 1;
        }
        previous = code;

        // Every completed row, in file order.
        while (end - start >= width && rowsLeft > 0) {
            drawRow(target, line + start, y);
            start += width;
            rowsLeft -= 1;
            y += currentStep;
            while (frame->isInterlaced && y >= height && pass < 3) {
                pass += 1;
                y = passStart[pass];
                currentStep = passStep[pass];
            }
        }
    }

    // Past the last pixel: the rest of the data, up to its terminator.
    while (!codes.hasEnded) {
        GifByteType *block = NULL;
        if (DGifGetCodeNext(gif, &block) == GIF_ERROR) return fail(reader);
        codes.hasEnded = block == NULL;
    }
    return 0;
}

int CGIFShim_ReaderDrawFrame(CGIFShim_Reader *reader, const CGIFShim_Frame *frame, uint8_t *canvas) {
    GifFileType *gif = reader->gif;
    const int32_t screenWidth = gif->SWidth, screenHeight = gif->SHeight;
    const size_t canvasStride = (size_t)screenWidth * 4;

    // 1. The previous frame's disposal (or a transparent canvas before the first frame).
    if (reader->drawnCount == 0) {
        // Skipped when the first frame paints every pixel of the screen (it covers it, with no transparency).
        const int coversScreen = frame->left <= 0 && frame->top <= 0 && frame->left + frame->width >= screenWidth
                                 && frame->top + frame->height >= screenHeight && frame->transparentIndex < 0;
        if (!coversScreen) memset(canvas, 0, canvasStride * (size_t)screenHeight);
    } else if (reader->previousDisposal == CGIFShim_DISPOSE_BACKGROUND) {
        // Browsers clear to transparent, not to the background colour.
        size_t rowBytes = (size_t)(reader->previousX1 - reader->previousX0) * 4;
        for (int32_t y = reader->previousY0; y < reader->previousY1; y++) {
            memset(canvas + (size_t)y * canvasStride + (size_t)reader->previousX0 * 4, 0, rowBytes);
        }
    } else if (reader->previousDisposal == CGIFShim_DISPOSE_PREVIOUS && reader->savedValid) {
        size_t rowBytes = (size_t)(reader->previousX1 - reader->previousX0) * 4;
        for (int32_t y = reader->previousY0; y < reader->previousY1; y++) {
            memcpy(canvas + (size_t)y * canvasStride + (size_t)reader->previousX0 * 4,
                   reader->saved + (size_t)(y - reader->previousY0) * rowBytes, rowBytes);
        }
    }
    reader->savedValid = 0;

    // The frame rectangle clipped to the screen.
    // giflib gives 16-bit values; the sums are taken in 64 bits anyway, and an empty rectangle stays empty.
    const int32_t x0 = clamp64(frame->left, 0, screenWidth);
    const int32_t x1 = clamp64((int64_t)frame->left + frame->width, x0, screenWidth);
    const int32_t y0 = clamp64(frame->top, 0, screenHeight);
    const int32_t y1 = clamp64((int64_t)frame->top + frame->height, y0, screenHeight);
    reader->previousDisposal = frame->disposal;
    reader->previousX0 = x0;
    reader->previousX1 = x1;
    reader->previousY0 = y0;
    reader->previousY1 = y1;
    reader->drawnCount += 1;

    // 2. Save what "restore to previous" will bring back (at most the canvas, whose size the caller checked).
    if (frame->disposal == CGIFShim_DISPOSE_PREVIOUS && x1 > x0 && y1 > y0) {
        size_t rowBytes = (size_t)(x1 - x0) * 4;
        size_t needed = rowBytes * (size_t)(y1 - y0);
        if (reserve(reader, &reader->saved, &reader->savedCapacity, needed) != 0) return CGIFShim_ERROR;
        for (int32_t y = y0; y < y1; y++) {
            memcpy(reader->saved + (size_t)(y - y0) * rowBytes, canvas + (size_t)y * canvasStride + (size_t)x0 * 4,
                   rowBytes);
        }
        reader->savedValid = 1;
    }

    if (frame->width <= 0 || frame->height <= 0) return CGIFShim_ReaderSkipFrame(reader);
    const ColorMapObject *colors = gif->Image.ColorMap != NULL ? gif->Image.ColorMap : gif->SColorMap;
    const int colorCount = (colors != NULL && colors->Colors != NULL) ? colors->ColorCount : 0;

    // 3. The palette as RGBA words in memory order (opaque black past the table's end; a grayscale ramp, index i
    // as (i, i, i), when the frame has no table at all, as Pillow does).
    uint32_t palette[256];
    for (int index = 0; index < 256; index++) {
        uint8_t rgba[4] = {0, 0, 0, 255};
        if (colorCount == 0) {
            rgba[0] = rgba[1] = rgba[2] = (uint8_t)index;
        } else if (index < colorCount) {
            rgba[0] = colors->Colors[index].Red;
            rgba[1] = colors->Colors[index].Green;
            rgba[2] = colors->Colors[index].Blue;
        }
        memcpy(&palette[index], rgba, 4);
    }
    const int transparent = frame->transparentIndex >= 0 && frame->transparentIndex < 256 ? frame->transparentIndex : -1;

    // 4. Rows in file order (the four interlace passes, or top to bottom), each drawn as soon as it is decoded.
    const FrameTarget target = {canvas, canvasStride, frame->left, frame->top, x0, x1, y0, y1, palette, transparent};
    return decodeRows(reader, frame, &target);
}
