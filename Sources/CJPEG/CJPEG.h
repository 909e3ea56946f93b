// libjpeg-turbo from the system (Debian: libjpeg62-turbo-dev). jpeglib.h needs stdio.h first.
#include <stdio.h>
#include <jpeglib.h>
