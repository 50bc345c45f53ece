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
