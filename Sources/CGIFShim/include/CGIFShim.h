// A small C layer over giflib for DecoderGIF: reads a GIF from memory record by record (never DGifSlurp, which
// decodes every frame at once), and composites frames onto a canvas in C so the per-pixel loop is fast in
// debug builds too.
//
// A reader walks the file once: `CGIFShim_ReaderNextFrame` reads up to the next image descriptor (collecting
// the graphic control extension and the NETSCAPE2.0 loop count on the way), then either
// `CGIFShim_ReaderSkipFrame` skips the frame's compressed data without decoding it, or
// `CGIFShim_ReaderDrawFrame` decodes it row by row onto the canvas. giflib parses the file (records,
// extensions, descriptors, colour tables) and hands over each frame's compressed sub-blocks; the LZW
// decompression is this layer's own, about twice as fast as giflib's, which pops every string off a stack
// one byte at a time. giflib reports errors by return value (it has no setjmp/longjmp); after a failure
// `CGIFShim_ReaderError` gives a giflib error code (the LZW stage uses giflib's codes too), and
// `GifErrorString` its message.

#ifndef CGIFSHIM_H
#define CGIFSHIM_H

#include <stddef.h>
#include <stdint.h>

/// The result of `CGIFShim_ReaderNextFrame`.
#define CGIFShim_FRAME 1
#define CGIFShim_END 0
#define CGIFShim_ERROR (-1)

/// GIF disposal methods (the graphic control extension's disposal field).
#define CGIFShim_DISPOSE_UNSPECIFIED 0
#define CGIFShim_DISPOSE_NONE 1
#define CGIFShim_DISPOSE_BACKGROUND 2
#define CGIFShim_DISPOSE_PREVIOUS 3

/// One frame's image descriptor and graphic control extension.
typedef struct {
    /// The frame rectangle as stored (it may extend past the logical screen; drawing clips it).
    int32_t left, top, width, height;
    int32_t isInterlaced;
    /// CGIFShim_DISPOSE_*; values above 3 (reserved) are kept as stored.
    int32_t disposal;
    /// The delay in hundredths of a second, as stored (0 when there is no graphic control extension).
    int32_t delay;
    /// The transparent palette index, or -1.
    int32_t transparentIndex;
    int32_t hasLocalColorTable;
} CGIFShim_Frame;

/// A GIF reader over bytes in memory. Created by `CGIFShim_ReaderCreate`, released by
/// `CGIFShim_ReaderDestroy`. Not thread-safe: one reader walks one file on one thread.
typedef struct CGIFShim_Reader CGIFShim_Reader;

/// Opens `count` bytes (which must outlive the reader) and reads the header and logical screen descriptor.
/// Returns NULL with giflib's error code in `*error` on failure.
CGIFShim_Reader *CGIFShim_ReaderCreate(const uint8_t *bytes, size_t count, int *error);

/// Releases the reader and giflib's state (`DGifCloseFile`).
void CGIFShim_ReaderDestroy(CGIFShim_Reader *reader);

/// The logical screen size (the canvas).
int32_t CGIFShim_ReaderScreenWidth(const CGIFShim_Reader *reader);
int32_t CGIFShim_ReaderScreenHeight(const CGIFShim_Reader *reader);

/// The NETSCAPE2.0 (or ANIMEXTS1.0) loop count read so far (the first such extension), or -1 if there was none.
int32_t CGIFShim_ReaderLoopCount(const CGIFShim_Reader *reader);

/// giflib's error code after a failure.
int CGIFShim_ReaderError(const CGIFShim_Reader *reader);

/// Reads records up to the next image descriptor and fills `frame`. Returns CGIFShim_FRAME, CGIFShim_END at
/// the trailer, or CGIFShim_ERROR. After CGIFShim_FRAME, call `SkipFrame` or `DrawFrame` exactly once.
int CGIFShim_ReaderNextFrame(CGIFShim_Reader *reader, CGIFShim_Frame *frame);

/// Skips the current frame's compressed data without decoding it. Returns 0 or CGIFShim_ERROR.
int CGIFShim_ReaderSkipFrame(CGIFShim_Reader *reader);

/// Decodes the current frame onto `canvas` (screen width × height RGBA8, premultiplied), as a browser shows
/// it: first the previous frame's disposal is applied (background: its rectangle becomes transparent;
/// previous: its rectangle is restored), then, if this frame's disposal is "previous", its rectangle is
/// saved, then its pixels are drawn, clipped to the screen, skipping the transparent index. The canvas is
/// cleared to transparent before the first frame. Indices past the colour table draw opaque black; a frame with
/// no colour table at all (neither local nor global) uses a grayscale ramp, as Pillow does.
/// Fails with D_GIF_ERR_IMAGE_DEFECT for a code past the next free table entry or a first code after a clear
/// that isn't a literal, D_GIF_ERR_EOF_TOO_SOON for an end code, and
/// D_GIF_ERR_READ_FAILED for the end of the data, before the last pixel; data after the last pixel is skipped.
/// Returns 0 or CGIFShim_ERROR. After an error the canvas's contents are unspecified (a first frame that covers
/// the screen isn't cleared first) and the reader must not be used for more frames.
int CGIFShim_ReaderDrawFrame(CGIFShim_Reader *reader, const CGIFShim_Frame *frame, uint8_t *canvas);

#endif
