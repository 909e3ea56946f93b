// libpng from the system (Debian: libpng-dev).
#include <png.h>
