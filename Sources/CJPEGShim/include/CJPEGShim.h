// A small C layer over libjpeg-turbo's libjpeg API for DecoderJPEG.
//
// libjpeg reports fatal errors through `error_exit`, which must not return (its default calls `exit`). This
// shim installs an error manager that records the message and `longjmp`s back to the shim function that
// called into libjpeg, so every `setjmp`/`longjmp` pair lives inside one C frame and never crosses Swift.
// Every function returns `CJPEGShim_OK` or `CJPEGShim_ERROR`; after an error the message is available from
// `CJPEGShim_DecoderMessage` (or the caller's message buffer for the encoder).

#ifndef CJPEGSHIM_H
#define CJPEGSHIM_H

#include <stddef.h>
#include <stdint.h>

#define CJPEGShim_OK 0
#define CJPEGShim_ERROR (-1)

/// The size of message buffers, including the terminating NUL (libjpeg's JMSG_LENGTH_MAX).
#define CJPEGShim_MESSAGE_LENGTH 200

/// The colour space of the encoded data, as far as the decoder cares.
typedef enum {
    CJPEGShim_ColorSpaceUnsupported = 0,
    CJPEGShim_ColorSpaceGray = 1,
    CJPEGShim_ColorSpaceRGB = 2,  // RGB or YCbCr: decoded through libjpeg's colour conversion.
    CJPEGShim_ColorSpaceCMYK = 3,  // CMYK or YCCK: decoded to CMYK and converted by the shim.
} CJPEGShim_ColorSpace;

/// What the frame header says.
typedef struct {
    uint32_t width;
    uint32_t height;
    int32_t componentCount;
    CJPEGShim_ColorSpace colorSpace;
    int32_t isProgressive;
} CJPEGShim_Header;

/// A libjpeg decompressor with its error manager. Created by `CJPEGShim_DecoderCreate`, released by
/// `CJPEGShim_DecoderDestroy`. Not thread-safe; use one decoder per image.
typedef struct CJPEGShim_Decoder CJPEGShim_Decoder;

/// Creates a decoder; returns NULL if memory is exhausted.
CJPEGShim_Decoder *CJPEGShim_DecoderCreate(void);

/// Releases the decoder and everything libjpeg allocated for it. Accepts NULL.
void CJPEGShim_DecoderDestroy(CJPEGShim_Decoder *decoder);

/// Reads the headers of `data` (which must stay valid and unchanged until the decoder is destroyed or
/// `CJPEGShim_DecoderReadPixels` returns) and fills `header`. Allocates no pixel memory.
int CJPEGShim_DecoderReadHeader(CJPEGShim_Decoder *decoder, const uint8_t *data, size_t size,
                                CJPEGShim_Header *header);

/// Chooses DCT scaling by 1/`scaleDenominator` (1, 2, 4 or 8) and reports the output size. Call after a
/// successful `CJPEGShim_DecoderReadHeader`. `blockSmoothing` turns libjpeg's estimate of missing AC (and,
/// with no AC at all, DC) coefficients of progressive files on or off.
int CJPEGShim_DecoderSetScale(CJPEGShim_Decoder *decoder, int scaleDenominator, int blockSmoothing,
                              uint32_t *outputWidth, uint32_t *outputHeight);

/// Called by `CJPEGShim_DecoderReadPixels` after each batch of rows is final (`rowCount` rows from `firstRow`),
/// with the `context` given to it. It runs between libjpeg calls, never inside one, so libjpeg's error jump
/// never crosses it; it must not call libjpeg.
typedef void (*CJPEGShim_RowsWritten)(void *context, size_t firstRow, size_t rowCount);

/// Decodes every row as RGBA (alpha 255) into `rgba`, which holds `outputHeight` rows of `bytesPerRow`
/// bytes (at least `outputWidth * 4`). Stops with an error after `maximumScanCount` scans. `rowsWritten`
/// (may be NULL) is told about each batch of finished rows, in order.
int CJPEGShim_DecoderReadPixels(CJPEGShim_Decoder *decoder, uint8_t *rgba, size_t bytesPerRow,
                                int maximumScanCount, CJPEGShim_RowsWritten rowsWritten, void *context);

/// The message of the last error, or of the first warning if there was no error; "" if neither.
const char *CJPEGShim_DecoderMessage(const CJPEGShim_Decoder *decoder);

/// Non-zero if the data ended before the end-of-image marker (libjpeg substituted the rest).
int CJPEGShim_DecoderHitEndOfData(const CJPEGShim_Decoder *decoder);

/// The number of warnings libjpeg reported (corrupt but recoverable data).
long CJPEGShim_DecoderWarningCount(const CJPEGShim_Decoder *decoder);

/// Compresses RGBA pixels (the alpha byte is ignored) with the given quality (1...100). On success
/// `*output` holds `*outputSize` bytes that the caller releases with `CJPEGShim_FreeEncoded`. On error
/// `message` (CJPEGShim_MESSAGE_LENGTH bytes) holds libjpeg's message and nothing needs releasing.
int CJPEGShim_Encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t bytesPerRow, int quality,
                     int progressive, uint8_t **output, size_t *outputSize, char *message);

/// Releases a buffer returned by `CJPEGShim_Encode`. Accepts NULL.
void CJPEGShim_FreeEncoded(uint8_t *buffer);

#endif
