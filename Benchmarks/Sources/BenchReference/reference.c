#include "BenchReference.h"

#include <string.h>
#include <vips/vips.h>
#include <cairo.h>

int bench_reference_init(void) {
    if (VIPS_INIT("nuke-bench")) {
        return -1;
    }
    vips_cache_set_max(0);
    return 0;
}

const char *bench_reference_vips_version(void) {
    return vips_version_string();
}

const char *bench_reference_cairo_version(void) {
    return cairo_version_string();
}

const char *bench_reference_vips_error(void) {
    static char message[512];
    snprintf(message, sizeof message, "%s", vips_error_buffer());
    vips_error_clear();
    return message;
}

static int copy_out(VipsImage *image, uint8_t *out, size_t expected) {
    size_t size = 0;
    void *memory = vips_image_write_to_memory(image, &size);
    if (memory == NULL) {
        return -1;
    }
    int status = size == expected ? 0 : -2;
    if (status == 0) {
        memcpy(out, memory, size);
    }
    g_free(memory);
    return status;
}

int bench_vips_resize(const uint8_t *rgba, int width, int height, uint8_t *out, int out_width, int out_height) {
    VipsImage *in = vips_image_new_from_memory(rgba, (size_t)width * height * 4, width, height, 4, VIPS_FORMAT_UCHAR);
    if (in == NULL) {
        return -1;
    }
    VipsImage *resized = NULL;
    double hscale = (double)out_width / width;
    double vscale = (double)out_height / height;
    int status = vips_resize(in, &resized, hscale, "vscale", vscale, NULL);
    if (status == 0) {
        if (vips_image_get_width(resized) != out_width || vips_image_get_height(resized) != out_height) {
            status = -2;
        } else {
            status = copy_out(resized, out, (size_t)out_width * out_height * 4);
        }
        g_object_unref(resized);
    }
    g_object_unref(in);
    return status;
}

int bench_vips_gaussblur(const uint8_t *rgba, int width, int height, double sigma, uint8_t *out) {
    VipsImage *in = vips_image_new_from_memory(rgba, (size_t)width * height * 4, width, height, 4, VIPS_FORMAT_UCHAR);
    if (in == NULL) {
        return -1;
    }
    VipsImage *blurred = NULL;
    int status = vips_gaussblur(in, &blurred, sigma, NULL);
    if (status == 0) {
        status = copy_out(blurred, out, (size_t)width * height * 4);
        g_object_unref(blurred);
    }
    g_object_unref(in);
    return status;
}

int bench_cairo_scale(const uint8_t *pixels, int width, int height, uint8_t *out, int out_width, int out_height) {
    cairo_surface_t *source = cairo_image_surface_create_for_data(
        (unsigned char *)pixels, CAIRO_FORMAT_ARGB32, width, height, width * 4);
    cairo_surface_t *target = cairo_image_surface_create_for_data(
        out, CAIRO_FORMAT_ARGB32, out_width, out_height, out_width * 4);
    cairo_t *cr = cairo_create(target);
    cairo_scale(cr, (double)out_width / width, (double)out_height / height);
    cairo_set_source_surface(cr, source, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_surface_flush(target);
    int status = cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
    cairo_destroy(cr);
    cairo_surface_destroy(target);
    cairo_surface_destroy(source);
    return status;
}
