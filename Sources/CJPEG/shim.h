// libjpeg-turbo's libjpeg API. Swift never calls it directly: CJPEGShim keeps every setjmp/longjmp in C.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
