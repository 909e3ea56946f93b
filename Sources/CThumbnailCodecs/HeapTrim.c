// Giving a decode's freed memory back to the system at once.
#include "CThumbnailCodecs.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

void bt_trim_heap(void) {
#ifdef __GLIBC__
    // glibc keeps what a thread's arena freed (a file's bytes, a decoder's buffers) for reuse;
    // after a large decode that is megabytes per decoding thread, held until the process ends.
    malloc_trim(0);
#endif
}
