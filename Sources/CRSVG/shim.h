// The part of librsvg, cairo and GLib that DecoderSVG calls, declared here rather than by including
// <librsvg/rsvg.h> and <cairo.h>.
//
// Why: those headers need GLib's, gdk-pixbuf's and cairo's include directories, which only pkg-config knows, and
// `pkg-config --cflags librsvg-2.0` also yields `-pthread` (from gmodule-no-export-2.0.pc, which librsvg's gio and
// gdk-pixbuf require). SwiftPM refuses that flag in packages used as a dependency and printed
// "warning: prohibited flag(s): -pthread" on every build of every package that depends on this one. So CRSVG
// has no pkgConfig: this header needs no include path and module.modulemap links the libraries by name.
//
// Every declaration below is copied from librsvg 2.52+ (rsvg.h, rsvg-cairo.h), cairo 1.16 (cairo.h) and GLib 2.x
// (gtypes.h, glibconfig.h for LP64 Linux, gerror.h, gobject.h, gtype.h); all are stable C ABIs. Struct layouts
// match the originals so pointers to them can be passed to the libraries.
#ifndef CRSVG_SHIM_H
#define CRSVG_SHIM_H

#if __SIZEOF_POINTER__ != 8 || __SIZEOF_LONG__ != 8
#error "CRSVG declares GLib's types for LP64 Linux; build on a 64-bit platform or include the real headers."
#endif

#ifdef __cplusplus
extern "C" {
#endif

// GLib
typedef int gboolean;
typedef int gint;
typedef unsigned int guint;
typedef unsigned int guint32;
typedef unsigned char guint8;
typedef unsigned long gsize;  // glibconfig.h on LP64 Linux
typedef double gdouble;
typedef char gchar;
typedef void *gpointer;
typedef guint32 GQuark;

typedef struct _GError {
    GQuark domain;
    gint code;
    gchar *message;
} GError;

void g_error_free(GError *error);
void g_object_unref(gpointer object);

// GObject's instance layout, the first member of RsvgHandle.
typedef struct _CRSVGGObject {
    void *g_type_instance;  // GTypeInstance: one GTypeClass pointer
    guint ref_count;
    void *qdata;
} CRSVGGObject;

// cairo
typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;

typedef enum _cairo_format {
    CAIRO_FORMAT_INVALID = -1,
    CAIRO_FORMAT_ARGB32 = 0,
    CAIRO_FORMAT_RGB24 = 1,
    CAIRO_FORMAT_A8 = 2,
    CAIRO_FORMAT_A1 = 3,
    CAIRO_FORMAT_RGB16_565 = 4,
    CAIRO_FORMAT_RGB30 = 5
} cairo_format_t;

// Only the success value is named here; the library returns others (up to CAIRO_STATUS_LAST_STATUS), which
// cairo_status_to_string describes.
typedef enum _cairo_status {
    CAIRO_STATUS_SUCCESS = 0,
    CAIRO_STATUS_NO_MEMORY = 1
} cairo_status_t;

int cairo_format_stride_for_width(cairo_format_t format, int width);
cairo_surface_t *cairo_image_surface_create_for_data(
    unsigned char *data, cairo_format_t format, int width, int height, int stride);
cairo_status_t cairo_surface_status(cairo_surface_t *surface);
void cairo_surface_flush(cairo_surface_t *surface);
void cairo_surface_destroy(cairo_surface_t *surface);
cairo_t *cairo_create(cairo_surface_t *target);
cairo_status_t cairo_status(cairo_t *cr);
void cairo_destroy(cairo_t *cr);
const char *cairo_status_to_string(cairo_status_t status);

// librsvg
typedef struct _RsvgHandle {
    CRSVGGObject parent;
    gpointer _abi_padding[16];
} RsvgHandle;

typedef struct _RsvgRectangle {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;

typedef enum {
    RSVG_UNIT_PERCENT,
    RSVG_UNIT_PX,
    RSVG_UNIT_EM,
    RSVG_UNIT_EX,
    RSVG_UNIT_IN,
    RSVG_UNIT_CM,
    RSVG_UNIT_MM,
    RSVG_UNIT_PT,
    RSVG_UNIT_PC
} RsvgUnit;

typedef struct {
    double length;
    RsvgUnit unit;
} RsvgLength;

RsvgHandle *rsvg_handle_new_from_data(const guint8 *data, gsize data_len, GError **error);
void rsvg_handle_set_dpi(RsvgHandle *handle, double dpi);
gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, gdouble *out_width, gdouble *out_height);
void rsvg_handle_get_intrinsic_dimensions(
    RsvgHandle *handle, gboolean *out_has_width, RsvgLength *out_width, gboolean *out_has_height,
    RsvgLength *out_height, gboolean *out_has_viewbox, RsvgRectangle *out_viewbox);
gboolean rsvg_handle_render_document(
    RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);

#ifdef __cplusplus
}
#endif

#endif
