// HEIF (HEIC) and AVIF through libheif, loaded at run time: the machine image has the library
// (libheif1, with its HEVC and AV1 decoders) but not its headers, and a machine without it still
// builds and serves. The few declarations below are what this file calls, with the values the
// library's public interface fixes.
#include "CThumbnailCodecs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct bt_heif_context bt_heif_context;
typedef struct bt_heif_handle bt_heif_handle;
typedef struct bt_heif_picture bt_heif_picture;

/// libheif's error, returned by value: `code` 0 is success.
typedef struct bt_heif_error {
    int code;
    int subcode;
    const char *message;
} bt_heif_error;

enum {
    BT_HEIF_COLORSPACE_RGB = 1,
    BT_HEIF_CHROMA_INTERLEAVED_RGB = 10,
    BT_HEIF_CHROMA_INTERLEAVED_RGBA = 11,
    BT_HEIF_CHANNEL_INTERLEAVED = 10,
};

typedef struct bt_heif_library {
    bt_heif_context *(*context_alloc)(void);
    void (*context_free)(bt_heif_context *);
    bt_heif_error (*read_from_memory)(bt_heif_context *, const void *, size_t, const void *);
    bt_heif_error (*primary_handle)(bt_heif_context *, bt_heif_handle **);
    int (*handle_width)(const bt_heif_handle *);
    int (*handle_height)(const bt_heif_handle *);
    int (*handle_has_alpha)(const bt_heif_handle *);
    bt_heif_error (*decode)(const bt_heif_handle *, bt_heif_picture **, int, int, const void *);
    const uint8_t *(*plane)(const bt_heif_picture *, int, int *);
    int (*picture_width)(const bt_heif_picture *, int);
    int (*picture_height)(const bt_heif_picture *, int);
    void (*picture_release)(const bt_heif_picture *);
    void (*handle_release)(const bt_heif_handle *);
} bt_heif_library;

static bt_heif_library bt_heif;
static int bt_heif_loaded;
static pthread_once_t bt_heif_once = PTHREAD_ONCE_INIT;

static void bt_heif_load(void) {
    static const char *const names[] = {"libheif.so.1", "libheif.1.dylib", "libheif.so"};
    void *handle = bt_open_library(names, sizeof(names) / sizeof(names[0]));
    if (handle == NULL) return;
    bt_heif_library library;
    *(void **)&library.context_alloc = dlsym(handle, "heif_context_alloc");
    *(void **)&library.context_free = dlsym(handle, "heif_context_free");
    *(void **)&library.read_from_memory = dlsym(handle, "heif_context_read_from_memory_without_copy");
    *(void **)&library.primary_handle = dlsym(handle, "heif_context_get_primary_image_handle");
    *(void **)&library.handle_width = dlsym(handle, "heif_image_handle_get_width");
    *(void **)&library.handle_height = dlsym(handle, "heif_image_handle_get_height");
    *(void **)&library.handle_has_alpha = dlsym(handle, "heif_image_handle_has_alpha_channel");
    *(void **)&library.decode = dlsym(handle, "heif_decode_image");
    *(void **)&library.plane = dlsym(handle, "heif_image_get_plane_readonly");
    *(void **)&library.picture_width = dlsym(handle, "heif_image_get_width");
    *(void **)&library.picture_height = dlsym(handle, "heif_image_get_height");
    *(void **)&library.picture_release = dlsym(handle, "heif_image_release");
    *(void **)&library.handle_release = dlsym(handle, "heif_image_handle_release");
    void **slots = (void **)&library;
    for (size_t index = 0; index < sizeof(library) / sizeof(void *); index++) {
        if (slots[index] == NULL) return;
    }
    bt_heif = library;
    bt_heif_loaded = 1;
}

int bt_heif_available(void) {
    pthread_once(&bt_heif_once, bt_heif_load);
    return bt_heif_loaded;
}

int bt_heif_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image) {
    memset(image, 0, sizeof(*image));
    if (!bt_heif_available()) return BT_UNAVAILABLE;
    if (data == NULL || size < 12) return BT_UNDECODABLE;
    bt_heif_context *context = bt_heif.context_alloc();
    if (context == NULL) return BT_NO_MEMORY;
    int status = BT_UNDECODABLE;
    bt_heif_handle *handle = NULL;
    bt_heif_picture *picture = NULL;
    bt_resampler *resampler = NULL;
    if (bt_heif.read_from_memory(context, data, size, NULL).code != 0) goto done;
    if (bt_heif.primary_handle(context, &handle).code != 0 || handle == NULL) goto done;
    // The size as shown (rotations and mirrors of the file applied), from the header: the
    // pixel limit is checked before anything is decoded.
    int width = bt_heif.handle_width(handle);
    int height = bt_heif.handle_height(handle);
    if (width <= 0 || height <= 0) goto done;
    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        status = BT_TOO_LARGE;
        goto done;
    }
    int alpha = bt_heif.handle_has_alpha(handle);
    int chroma = alpha ? BT_HEIF_CHROMA_INTERLEAVED_RGBA : BT_HEIF_CHROMA_INTERLEAVED_RGB;
    if (bt_heif.decode(handle, &picture, BT_HEIF_COLORSPACE_RGB, chroma, NULL).code != 0 || picture == NULL)
        goto done;
    int stride = 0;
    const uint8_t *rows = bt_heif.plane(picture, BT_HEIF_CHANNEL_INTERLEAVED, &stride);
    int decoded_width = bt_heif.picture_width(picture, BT_HEIF_CHANNEL_INTERLEAVED);
    int decoded_height = bt_heif.picture_height(picture, BT_HEIF_CHANNEL_INTERLEAVED);
    uint32_t channels = alpha ? 4 : 3;
    if (rows == NULL || decoded_width <= 0 || decoded_height <= 0 || stride < decoded_width * (int)channels)
        goto done;
    resampler = bt_resampler_fitting((uint32_t)decoded_width, (uint32_t)decoded_height, longest);
    if (resampler == NULL) {
        status = BT_NO_MEMORY;
        goto done;
    }
    for (int row = 0; row < decoded_height; row++) {
        bt_resampler_add_row(resampler, rows + (size_t)row * (size_t)stride, channels);
    }
    bt_resampler_finish_into(resampler, image);
    resampler = NULL;
    image->source_width = (uint32_t)width;
    image->source_height = (uint32_t)height;
    status = BT_OK;
done:
    bt_resampler_discard(resampler);
    if (picture != NULL) bt_heif.picture_release(picture);
    if (handle != NULL) bt_heif.handle_release(handle);
    bt_heif.context_free(context);
    return status;
}
