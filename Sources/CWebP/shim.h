// libwebp: still and incremental decoding, encoding, animation decoding through libwebpdemux and animation
// encoding through libwebpmux.
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>
