#ifndef CJPEG_SHIM_H
#define CJPEG_SHIM_H

// libjpeg-turbo's libjpeg API. Swift never calls it directly: CJPEGShim keeps every setjmp/longjmp in C.
#include <stddef.h>
#include <stdio.h>
#if !__has_include(<jpeglib.h>)
#error "CJPEG: <jpeglib.h> not found: install Debian's libjpeg62-turbo-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <jpeglib.h>
#endif

#endif
