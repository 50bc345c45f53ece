#include "CBenchCodecs.h"

#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <librsvg/rsvg.h>
#include <png.h>
#include <turbojpeg.h>
#include <vips/vips.h>
#include <webp/decode.h>

int CBenchCodecs_decodePNG(const uint8_t *data, size_t size) {
    png_image image;
    memset(&image, 0, sizeof(image));
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        return 1;
    }
    image.format = PNG_FORMAT_RGBA;
    uint8_t *output = malloc(PNG_IMAGE_SIZE(image));
    if (output == NULL) {
        png_image_free(&image);
        return 2;
    }
    int ok = png_image_finish_read(&image, NULL, output, 0, NULL);
    free(output);
    return ok ? 0 : 3;
}

int CBenchCodecs_decodeJPEG(const uint8_t *data, size_t size, int scaleDenominator, int *width, int *height) {
    tjhandle handle = tjInitDecompress();
    if (handle == NULL) {
        return 1;
    }
    int fullWidth = 0, fullHeight = 0, subsampling = 0, colorspace = 0;
    int status = tjDecompressHeader3(handle, data, (unsigned long)size, &fullWidth, &fullHeight, &subsampling,
                                     &colorspace);
    if (status == 0) {
        *width = TJSCALED(fullWidth, ((tjscalingfactor){1, scaleDenominator}));
        *height = TJSCALED(fullHeight, ((tjscalingfactor){1, scaleDenominator}));
        uint8_t *output = malloc((size_t)*width * (size_t)*height * 4);
        status = output == NULL ? -1
                                : tjDecompress2(handle, data, (unsigned long)size, output, *width, 0, *height,
                                                TJPF_RGBA, 0);
        free(output);
    }
    tjDestroy(handle);
    return status == 0 ? 0 : 2;
}

int CBenchCodecs_decodeWebP(const uint8_t *data, size_t size) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        return 1;
    }
    if (WebPGetFeatures(data, size, &config.input) != VP8_STATUS_OK) {
        return 2;
    }
    size_t capacity = (size_t)config.input.width * (size_t)config.input.height * 4;
    uint8_t *output = malloc(capacity);
    if (output == NULL) {
        return 3;
    }
    config.output.colorspace = MODE_rgbA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = output;
    config.output.u.RGBA.stride = config.input.width * 4;
    config.output.u.RGBA.size = capacity;
    VP8StatusCode status = WebPDecode(data, size, &config);
    free(output);
    return status == VP8_STATUS_OK ? 0 : 4;
}

int CBenchCodecs_renderSVG(const uint8_t *data, size_t size, int width, int height) {
    GError *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_data(data, size, &error);
    if (handle == NULL) {
        g_clear_error(&error);
        return 1;
    }
    uint8_t *output = calloc((size_t)width * (size_t)height, 4);
    cairo_surface_t *surface =
        cairo_image_surface_create_for_data(output, CAIRO_FORMAT_ARGB32, width, height, width * 4);
    cairo_t *cr = cairo_create(surface);
    RsvgRectangle viewport = {0, 0, width, height};
    gboolean ok = rsvg_handle_render_document(handle, cr, &viewport, &error);
    g_clear_error(&error);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    g_object_unref(handle);
    free(output);
    return ok ? 0 : 2;
}

int CBenchCodecs_vipsStart(void) {
    if (VIPS_INIT("nuke-bench")) {
        return 1;
    }
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    return 0;
}

int CBenchCodecs_vipsThumbnail(const uint8_t *data, size_t size, int width, int *outputWidth, int *outputHeight) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail_buffer((void *)data, size, &thumbnail, width, NULL)) {
        vips_error_clear();
        return 1;
    }
    size_t length = 0;
    void *pixels = vips_image_write_to_memory(thumbnail, &length);
    *outputWidth = vips_image_get_width(thumbnail);
    *outputHeight = vips_image_get_height(thumbnail);
    g_free(pixels);
    g_object_unref(thumbnail);
    return pixels == NULL ? 2 : 0;
}

// MARK: - GIF (giflib)

#include <gif_lib.h>

typedef struct {
    const uint8_t *data;
    size_t size, position;
} BenchGIFInput;

static int benchGIFRead(GifFileType *gif, GifByteType *buffer, int length) {
    BenchGIFInput *input = gif->UserData;
    size_t count = (size_t)length < input->size - input->position ? (size_t)length : input->size - input->position;
    memcpy(buffer, input->data + input->position, count);
    input->position += count;
    return (int)count;
}

int CBenchCodecs_decodeGIF(const uint8_t *data, size_t size, int maximumFrames, int *frameCount) {
    BenchGIFInput input = {data, size, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&input, benchGIFRead, &error);
    if (gif == NULL) return 1;
    const int width = gif->SWidth, height = gif->SHeight;
    uint8_t *canvas = calloc((size_t)width * height, 4);
    GifPixelType *row = malloc((size_t)width);
    int status = canvas == NULL || row == NULL ? 2 : 0;
    int transparent = -1, disposal = 0, previousDisposal = 0;
    int previousLeft = 0, previousTop = 0, previousWidth = 0, previousHeight = 0;
    *frameCount = 0;
    while (status == 0 && *frameCount < maximumFrames) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) { status = 3; break; }
        if (type == TERMINATE_RECORD_TYPE) break;
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) { status = 4; break; }
            if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4) {
                disposal = (block[1] >> 2) & 7;
                transparent = (block[1] & 1) ? block[4] : -1;
            }
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) { status = 4; break; }
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE || DGifGetImageDesc(gif) == GIF_ERROR) { status = 5; break; }
        if (previousDisposal == 2) {
            for (int y = previousTop; y < previousTop + previousHeight; y++) {
                memset(canvas + ((size_t)y * width + previousLeft) * 4, 0, (size_t)previousWidth * 4);
            }
        }
        const GifImageDesc *frame = &gif->Image;
        const ColorMapObject *colors = frame->ColorMap ? frame->ColorMap : gif->SColorMap;
        for (int y = 0; y < frame->Height && status == 0; y++) {
            if (DGifGetLine(gif, row, frame->Width) == GIF_ERROR) { status = 6; break; }
            uint8_t *destination = canvas + ((size_t)(frame->Top + y) * width + frame->Left) * 4;
            for (int x = 0; x < frame->Width; x++) {
                if (row[x] == transparent) continue;
                const GifColorType color = colors->Colors[row[x]];
                destination[x * 4] = color.Red;
                destination[x * 4 + 1] = color.Green;
                destination[x * 4 + 2] = color.Blue;
                destination[x * 4 + 3] = 255;
            }
        }
        previousDisposal = disposal;
        previousLeft = frame->Left;
        previousTop = frame->Top;
        previousWidth = frame->Width;
        previousHeight = frame->Height;
        transparent = -1;
        disposal = 0;
        *frameCount += 1;
    }
    free(row);
    free(canvas);
    DGifCloseFile(gif, &error);
    return status;
}

typedef struct {
    uint8_t *bytes;
    size_t size, capacity;
} BenchGIFOutput;

static int benchGIFWrite(GifFileType *gif, const GifByteType *buffer, int length) {
    BenchGIFOutput *output = gif->UserData;
    if (output->size + (size_t)length > output->capacity) {
        size_t capacity = (output->capacity + (size_t)length) * 2;
        uint8_t *bytes = realloc(output->bytes, capacity);
        if (bytes == NULL) return 0;
        output->bytes = bytes;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->size, buffer, (size_t)length);
    output->size += (size_t)length;
    return length;
}

int CBenchCodecs_encodeGIF(const uint8_t *frames, int width, int height, int frameCount, uint8_t **output,
                           size_t *outputSize) {
    BenchGIFOutput sink = {NULL, 0, 0};
    int error = 0;
    GifFileType *gif = EGifOpen(&sink, benchGIFWrite, &error);
    if (gif == NULL) return 1;
    GifColorType cube[256];
    memset(cube, 0, sizeof(cube));
    for (int index = 0; index < 216; index++) {
        cube[index].Red = (GifByteType)(index / 36 * 51);
        cube[index].Green = (GifByteType)(index / 6 % 6 * 51);
        cube[index].Blue = (GifByteType)(index % 6 * 51);
    }
    ColorMapObject *map = GifMakeMapObject(256, cube);
    EGifSetGifVersion(gif, true);
    int status = EGifPutScreenDesc(gif, width, height, 8, 0, map) == GIF_ERROR ? 2 : 0;
    if (status == 0 && frameCount > 1) {
        const GifByteType application[11] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
        const GifByteType loop[3] = {1, 0, 0};
        if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR
            || EGifPutExtensionBlock(gif, 11, application) == GIF_ERROR || EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR
            || EGifPutExtensionTrailer(gif) == GIF_ERROR) {
            status = 3;
        }
    }
    GifPixelType *row = malloc((size_t)width);
    for (int frame = 0; frame < frameCount && status == 0; frame++) {
        const GifByteType control[4] = {0x04, 4, 0, 0};  // Disposal "none", 40 ms.
        if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, control) == GIF_ERROR
            || EGifPutImageDesc(gif, 0, 0, width, height, false, NULL) == GIF_ERROR) {
            status = 4;
            break;
        }
        const uint8_t *pixels = frames + (size_t)frame * width * height * 4;
        for (int y = 0; y < height && status == 0; y++) {
            for (int x = 0; x < width; x++) {
                const uint8_t *pixel = pixels + ((size_t)y * width + x) * 4;
                row[x] = (GifPixelType)((pixel[0] + 25) / 51 * 36 + (pixel[1] + 25) / 51 * 6 + (pixel[2] + 25) / 51);
            }
            if (EGifPutLine(gif, row, width) == GIF_ERROR) status = 5;
        }
    }
    free(row);
    GifFreeMapObject(map);
    if (EGifCloseFile(gif, &error) == GIF_ERROR && status == 0) status = 6;
    if (status != 0) {
        free(sink.bytes);
        return status;
    }
    *output = sink.bytes;
    *outputSize = sink.size;
    return 0;
}

// MARK: - AVIF (libavif)

#include <avif/avif.h>

int CBenchCodecs_decodeAVIF(const uint8_t *data, size_t size) {
    avifDecoder *decoder = avifDecoderCreate();
    if (decoder == NULL) return 1;
    int status = 0;
    if (avifDecoderSetIOMemory(decoder, data, size) != AVIF_RESULT_OK || avifDecoderParse(decoder) != AVIF_RESULT_OK
        || avifDecoderNextImage(decoder) != AVIF_RESULT_OK) {
        status = 2;
    } else {
        avifRGBImage rgb;
        avifRGBImageSetDefaults(&rgb, decoder->image);
        rgb.format = AVIF_RGB_FORMAT_RGBA;
        rgb.depth = 8;
        rgb.alphaPremultiplied = AVIF_TRUE;
        rgb.rowBytes = rgb.width * 4;
        rgb.pixels = malloc((size_t)rgb.rowBytes * rgb.height);
        if (rgb.pixels == NULL || avifImageYUVToRGB(decoder->image, &rgb) != AVIF_RESULT_OK) status = 3;
        free(rgb.pixels);
    }
    avifDecoderDestroy(decoder);
    return status;
}
