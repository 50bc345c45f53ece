// libpng's simplified API (png_image_*), which keeps its setjmp/longjmp inside libpng.
#include <png.h>
