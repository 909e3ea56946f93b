// The optional codec libraries, loaded at run time: a machine without one still builds and serves.
#include "CThumbnailCodecs.h"

#include <dlfcn.h>

void *bt_open_library(const char *const *names, size_t count) {
    void *handle = NULL;
    for (size_t index = 0; index < count && handle == NULL; index++) handle = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    return handle;
}
