// librsvg renders SVG documents through cairo; GLib provides errors and object lifetimes.
#include <librsvg/rsvg.h>
#include <cairo.h>
