// giflib's decoding API (Debian's libgif-dev ships no pkg-config file). DecoderGIF calls it through CGIFShim.
#include <gif_lib.h>
