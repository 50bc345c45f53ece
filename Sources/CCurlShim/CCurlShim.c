// Everything in this target is a static inline function in include/CCurlShim.h; SwiftPM needs one source file.
#include "CCurlShim.h"
