// The HEIC and JPEG XL references: libheif (HEVC decoded by libde265, encoded by x265) and libjxl, called as a C
// program would call them.
#include "CBenchCodecs.h"

#include <stdlib.h>
#include <string.h>

#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <libheif/heif.h>

// MARK: - HEIC (libheif)

int CBenchCodecs_decodeHEIC(const uint8_t *data, size_t size) {
    struct heif_context *context = heif_context_alloc();
    if (context == NULL) return 1;
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    int status = 0;
    if (heif_context_read_from_memory_without_copy(context, data, size, NULL).code != heif_error_Ok
        || heif_context_get_primary_image_handle(context, &handle).code != heif_error_Ok) {
        status = 2;
    } else if (heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL).code
               != heif_error_Ok) {
        status = 3;
    } else {
        int stride = 0;
        const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
        if (plane == NULL || stride < heif_image_handle_get_width(handle) * 4) status = 4;
    }
    heif_image_release(image);
    heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}

struct CBenchCodecsSink {
    uint8_t *bytes;
    size_t size;
};

static struct heif_error CBenchCodecs_writeHEIF(struct heif_context *context, const void *data, size_t size,
                                                void *userdata) {
    (void)context;
    struct CBenchCodecsSink *sink = userdata;
    struct heif_error error = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    uint8_t *bytes = realloc(sink->bytes, sink->size + size);
    if (bytes == NULL) {
        error.code = heif_error_Encoding_error;
        error.subcode = heif_suberror_Cannot_write_output_data;
        error.message = "out of memory";
        return error;
    }
    memcpy(bytes + sink->size, data, size);
    sink->bytes = bytes;
    sink->size += size;
    return error;
}

int CBenchCodecs_encodeHEIC(const uint8_t *rgba, int width, int height, int quality, const char *preset,
                            uint8_t **output, size_t *outputSize) {
    struct heif_context *context = heif_context_alloc();
    if (context == NULL) return 1;
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct CBenchCodecsSink sink = {NULL, 0};
    int status = 0;
    if (heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder).code != heif_error_Ok) {
        status = 2;
    } else if (heif_image_create(width, height, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image).code
                   != heif_error_Ok
               || heif_image_add_plane(image, heif_channel_interleaved, width, height, 8).code != heif_error_Ok) {
        status = 3;
    } else {
        int stride = 0;
        uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
        for (int y = 0; y < height; y++) {
            const uint8_t *source = rgba + (size_t)y * (size_t)width * 4;
            uint8_t *destination = plane + (size_t)y * (size_t)stride;
            for (int x = 0; x < width; x++) memcpy(destination + x * 3, source + x * 4, 3);
        }
        struct heif_writer writer = {1, CBenchCodecs_writeHEIF};
        if (heif_encoder_set_lossy_quality(encoder, quality).code != heif_error_Ok
            || heif_encoder_set_parameter_string(encoder, "preset", preset).code != heif_error_Ok) {
            status = 4;
        } else if (heif_context_encode_image(context, image, encoder, NULL, NULL).code != heif_error_Ok) {
            status = 5;
        } else if (heif_context_write(context, &writer, &sink).code != heif_error_Ok) {
            status = 6;
        }
    }
    heif_image_release(image);
    heif_encoder_release(encoder);
    heif_context_free(context);
    if (status != 0) {
        free(sink.bytes);
        return status;
    }
    *output = sink.bytes;
    *outputSize = sink.size;
    return 0;
}

// MARK: - JPEG XL (libjxl)

int CBenchCodecs_decodeJXL(const uint8_t *data, size_t size, int threads) {
    JxlDecoder *decoder = JxlDecoderCreate(NULL);
    if (decoder == NULL) return 1;
    void *runner = threads > 0 ? JxlThreadParallelRunnerCreate(NULL, (size_t)threads) : NULL;
    JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    uint8_t *pixels = NULL;
    int status = 0;
    if ((threads > 0
         && (runner == NULL || JxlDecoderSetParallelRunner(decoder, JxlThreadParallelRunner, runner) != JXL_DEC_SUCCESS))
        || JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS
        || JxlDecoderSetInput(decoder, data, size) != JXL_DEC_SUCCESS) {
        status = 2;
    }
    while (status == 0) {
        JxlDecoderStatus next = JxlDecoderProcessInput(decoder);
        if (next == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo info;
            if (JxlDecoderGetBasicInfo(decoder, &info) != JXL_DEC_SUCCESS) status = 3;
        } else if (next == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t bufferSize = 0;
            if (JxlDecoderImageOutBufferSize(decoder, &format, &bufferSize) != JXL_DEC_SUCCESS
                || (pixels = malloc(bufferSize)) == NULL
                || JxlDecoderSetImageOutBuffer(decoder, &format, pixels, bufferSize) != JXL_DEC_SUCCESS) {
                status = 4;
            }
        } else if (next == JXL_DEC_FULL_IMAGE) {
            break;  // The first frame: all a still image has.
        } else {
            status = 5;  // An error, truncated input, or an event not subscribed to.
        }
    }
    free(pixels);
    JxlDecoderDestroy(decoder);
    if (runner != NULL) JxlThreadParallelRunnerDestroy(runner);
    return status;
}
