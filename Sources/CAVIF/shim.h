// libavif: decoding (with dav1d or libaom, as Debian builds it) and encoding (libaom).
#include <avif/avif.h>
