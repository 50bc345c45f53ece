#include "CGIFShim.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

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

static int32_t clamp(int32_t value, int32_t low, int32_t high) {
    return value < low ? low : (value > high ? high : value);
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
    const int32_t x0 = clamp(frame->left, 0, screenWidth), x1 = clamp(frame->left + frame->width, 0, screenWidth);
    const int32_t y0 = clamp(frame->top, 0, screenHeight), y1 = clamp(frame->top + frame->height, 0, screenHeight);
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
        if (needed > reader->savedCapacity) {
            uint8_t *saved = realloc(reader->saved, needed);
            if (saved == NULL) {
                reader->error = D_GIF_ERR_NOT_ENOUGH_MEM;
                return CGIFShim_ERROR;
            }
            reader->saved = saved;
            reader->savedCapacity = needed;
        }
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
    GifPixelType *row = malloc((size_t)frame->width);
    if (row == NULL) {
        reader->error = D_GIF_ERR_NOT_ENOUGH_MEM;
        return CGIFShim_ERROR;
    }
    static const int32_t passStart[4] = {0, 4, 2, 1}, passStep[4] = {8, 8, 4, 2};
    const int passCount = frame->isInterlaced ? 4 : 1;
    int result = 0;
    for (int pass = 0; pass < passCount && result == 0; pass++) {
        const int32_t start = frame->isInterlaced ? passStart[pass] : 0;
        const int32_t step = frame->isInterlaced ? passStep[pass] : 1;
        for (int32_t y = start; y < frame->height; y += step) {
            if (DGifGetLine(gif, row, frame->width) == GIF_ERROR) {
                result = fail(reader);
                break;
            }
            const int32_t canvasY = frame->top + y;
            if (canvasY < y0 || canvasY >= y1) continue;
            uint8_t *destination = canvas + (size_t)canvasY * canvasStride + (size_t)x0 * 4;
            const GifPixelType *source = row + (x0 - frame->left);
            const int32_t count = x1 - x0;
            if (transparent < 0) {
                for (int32_t x = 0; x < count; x++) memcpy(destination + (size_t)x * 4, &palette[source[x]], 4);
            } else {
                for (int32_t x = 0; x < count; x++) {
                    if (source[x] != transparent) memcpy(destination + (size_t)x * 4, &palette[source[x]], 4);
                }
            }
        }
    }
    free(row);
    return result;
}
