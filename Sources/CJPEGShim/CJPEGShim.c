#include "CJPEGShim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

// MARK: - Error handling

/// Where libjpeg's callbacks report to; `cinfo->client_data` points at it.
typedef struct {
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int hasError;
    int hitEndOfData;
    long warningCount;
    int maximumScanCount;  // 0 means no limit.
} CJPEGShim_State;

static void CJPEGShim_errorExit(j_common_ptr cinfo) {
    CJPEGShim_State *state = (CJPEGShim_State *)cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, state->message);
    state->hasError = 1;
    longjmp(state->jump, 1);
}

static void CJPEGShim_emitMessage(j_common_ptr cinfo, int level) {
    if (level >= 0) {
        return;  // Trace messages.
    }
    CJPEGShim_State *state = (CJPEGShim_State *)cinfo->client_data;
    state->warningCount += 1;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        state->hitEndOfData = 1;
    }
    if (state->message[0] == '\0') {
        (*cinfo->err->format_message)(cinfo, state->message);
    }
}

static void CJPEGShim_outputMessage(j_common_ptr cinfo) {
    (void)cinfo;  // Never print to stderr.
}

static void CJPEGShim_fail(CJPEGShim_State *state, const char *message) {
    snprintf(state->message, sizeof(state->message), "%s", message);
    state->hasError = 1;
    longjmp(state->jump, 1);
}

/// Stops decoding once the data has more scans than allowed: a progressive file can repeat empty scans to
/// make decoding arbitrarily slow.
static void CJPEGShim_progress(j_common_ptr cinfo) {
    CJPEGShim_State *state = (CJPEGShim_State *)cinfo->client_data;
    if (cinfo->is_decompressor && state->maximumScanCount > 0) {
        j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
        if (dinfo->input_scan_number > state->maximumScanCount) {
            char message[JMSG_LENGTH_MAX];
            snprintf(message, sizeof(message), "Too many scans (more than %d)", state->maximumScanCount);
            CJPEGShim_fail(state, message);
        }
    }
}

static void CJPEGShim_installErrorManager(j_common_ptr cinfo, struct jpeg_error_mgr *manager,
                                          CJPEGShim_State *state) {
    cinfo->err = jpeg_std_error(manager);
    manager->error_exit = CJPEGShim_errorExit;
    manager->emit_message = CJPEGShim_emitMessage;
    manager->output_message = CJPEGShim_outputMessage;
    cinfo->client_data = state;
}

// MARK: - Decoding

struct CJPEGShim_Decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr errorManager;
    struct jpeg_progress_mgr progress;
    CJPEGShim_State state;
    CJPEGShim_ColorSpace colorSpace;
    int headerRead;
};

CJPEGShim_Decoder *CJPEGShim_DecoderCreate(void) {
    CJPEGShim_Decoder *decoder = calloc(1, sizeof(CJPEGShim_Decoder));
    if (decoder == NULL) {
        return NULL;
    }
    CJPEGShim_installErrorManager((j_common_ptr)&decoder->cinfo, &decoder->errorManager, &decoder->state);
    if (setjmp(decoder->state.jump)) {
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->progress.progress_monitor = CJPEGShim_progress;
    decoder->cinfo.progress = &decoder->progress;
    return decoder;
}

void CJPEGShim_DecoderDestroy(CJPEGShim_Decoder *decoder) {
    if (decoder == NULL) {
        return;
    }
    jpeg_destroy_decompress(&decoder->cinfo);  // Never calls error_exit.
    free(decoder);
}

int CJPEGShim_DecoderReadHeader(CJPEGShim_Decoder *decoder, const uint8_t *data, size_t size,
                                CJPEGShim_Header *header) {
    if (setjmp(decoder->state.jump)) {
        return CJPEGShim_ERROR;
    }
    if (decoder->headerRead) {
        CJPEGShim_fail(&decoder->state, "The header was already read");
    }
    jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
    if (jpeg_read_header(&decoder->cinfo, TRUE) != JPEG_HEADER_OK) {
        CJPEGShim_fail(&decoder->state, "No image in the JPEG data");
    }
    decoder->headerRead = 1;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
        decoder->colorSpace = CJPEGShim_ColorSpaceGray;
        break;
    case JCS_RGB:
    case JCS_YCbCr:
        decoder->colorSpace = CJPEGShim_ColorSpaceRGB;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        decoder->colorSpace = CJPEGShim_ColorSpaceCMYK;
        break;
    default:
        decoder->colorSpace = CJPEGShim_ColorSpaceUnsupported;
        break;
    }
    header->width = cinfo->image_width;
    header->height = cinfo->image_height;
    header->componentCount = cinfo->num_components;
    header->colorSpace = decoder->colorSpace;
    header->isProgressive = cinfo->progressive_mode ? 1 : 0;
    return CJPEGShim_OK;
}

int CJPEGShim_DecoderSetScale(CJPEGShim_Decoder *decoder, int scaleDenominator, int blockSmoothing,
                              uint32_t *outputWidth, uint32_t *outputHeight) {
    if (setjmp(decoder->state.jump)) {
        return CJPEGShim_ERROR;
    }
    if (!decoder->headerRead) {
        CJPEGShim_fail(&decoder->state, "The header was not read");
    }
    if (decoder->colorSpace == CJPEGShim_ColorSpaceUnsupported) {
        CJPEGShim_fail(&decoder->state, "Unsupported JPEG colour space");
    }
    if (scaleDenominator != 1 && scaleDenominator != 2 && scaleDenominator != 4 && scaleDenominator != 8) {
        CJPEGShim_fail(&decoder->state, "Unsupported scale");
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)scaleDenominator;
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->do_block_smoothing = blockSmoothing ? TRUE : FALSE;
    cinfo->out_color_space = decoder->colorSpace == CJPEGShim_ColorSpaceCMYK ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_calc_output_dimensions(cinfo);
    *outputWidth = cinfo->output_width;
    *outputHeight = cinfo->output_height;
    return CJPEGShim_OK;
}

/// Converts CMYK in place to opaque RGBA. Adobe applications write inverted CMYK (and an APP14 marker);
/// without the marker the values are taken as regular CMYK.
static void CJPEGShim_convertCMYKRow(uint8_t *row, JDIMENSION width, int isInverted) {
    for (JDIMENSION x = 0; x < width; x++, row += 4) {
        unsigned c = row[0], m = row[1], y = row[2], k = row[3];
        if (!isInverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        row[0] = (uint8_t)((c * k + 127) / 255);
        row[1] = (uint8_t)((m * k + 127) / 255);
        row[2] = (uint8_t)((y * k + 127) / 255);
        row[3] = 255;
    }
}

int CJPEGShim_DecoderReadPixels(CJPEGShim_Decoder *decoder, uint8_t *rgba, size_t bytesPerRow,
                                int maximumScanCount, CJPEGShim_RowsWritten rowsWritten, void *context) {
    if (setjmp(decoder->state.jump)) {
        return CJPEGShim_ERROR;
    }
    if (!decoder->headerRead) {
        CJPEGShim_fail(&decoder->state, "The header was not read");
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    decoder->state.maximumScanCount = maximumScanCount;
    jpeg_start_decompress(cinfo);
    const int isCMYK = decoder->colorSpace == CJPEGShim_ColorSpaceCMYK;
    const int isInverted = cinfo->saw_Adobe_marker ? 1 : 0;
    enum { maximumRows = 16 };
    JSAMPROW rows[maximumRows];
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = cinfo->output_height - first;
        if (count > maximumRows) {
            count = maximumRows;
        }
        for (JDIMENSION index = 0; index < count; index++) {
            rows[index] = rgba + (size_t)(first + index) * bytesPerRow;
        }
        JDIMENSION read = jpeg_read_scanlines(cinfo, rows, count);
        if (read == 0) {
            CJPEGShim_fail(&decoder->state, "libjpeg returned no rows");
        }
        if (isCMYK) {
            for (JDIMENSION index = 0; index < read; index++) {
                CJPEGShim_convertCMYKRow(rows[index], cinfo->output_width, isInverted);
            }
        }
        if (rowsWritten) {
            rowsWritten(context, first, read);
        }
    }
    jpeg_finish_decompress(cinfo);
    return CJPEGShim_OK;
}

const char *CJPEGShim_DecoderMessage(const CJPEGShim_Decoder *decoder) {
    return decoder->state.message;
}

int CJPEGShim_DecoderHitEndOfData(const CJPEGShim_Decoder *decoder) {
    return decoder->state.hitEndOfData;
}

long CJPEGShim_DecoderWarningCount(const CJPEGShim_Decoder *decoder) {
    return decoder->state.warningCount;
}

// MARK: - Encoding

/// The encoder's libjpeg state, kept together so that everything the error path needs is in memory that
/// `longjmp` doesn't invalidate.
typedef struct {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr errorManager;
    CJPEGShim_State state;
    unsigned char *buffer;
    unsigned long size;
} CJPEGShim_Encoder;

int CJPEGShim_Encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t bytesPerRow, int quality,
                     int progressive, uint8_t **output, size_t *outputSize, char *message) {
    CJPEGShim_Encoder *encoder = calloc(1, sizeof(CJPEGShim_Encoder));
    if (encoder == NULL) {
        snprintf(message, CJPEGShim_MESSAGE_LENGTH, "Out of memory");
        return CJPEGShim_ERROR;
    }
    CJPEGShim_installErrorManager((j_common_ptr)&encoder->cinfo, &encoder->errorManager, &encoder->state);
    if (setjmp(encoder->state.jump)) {
        snprintf(message, CJPEGShim_MESSAGE_LENGTH, "%s", encoder->state.message);
        jpeg_destroy_compress(&encoder->cinfo);
        free(encoder->buffer);
        free(encoder);
        return CJPEGShim_ERROR;
    }
    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    jpeg_create_compress(cinfo);
    jpeg_mem_dest(cinfo, &encoder->buffer, &encoder->size);
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    if (progressive) {
        jpeg_simple_progression(cinfo);
    }
    jpeg_start_compress(cinfo, TRUE);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(rgba + (size_t)cinfo->next_scanline * bytesPerRow);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    jpeg_destroy_compress(cinfo);
    *output = encoder->buffer;
    *outputSize = (size_t)encoder->size;
    free(encoder);
    return CJPEGShim_OK;
}

void CJPEGShim_FreeEncoded(uint8_t *buffer) {
    free(buffer);  // jpeg_mem_dest allocates with malloc.
}
