// libwebp: still and incremental decoding, encoding, and animation through libwebpdemux.
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
