// TIFF through libtiff, loaded at run time on the first TIFF (the machine image has libtiff6
// but not its headers; a machine without it still builds and serves). The declarations below
// are the calls this file makes, with the values libtiff's interface fixes.
#include "CThumbnailCodecs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef struct bt_tiff bt_tiff;
typedef void *bt_tiff_handle;
typedef ptrdiff_t (*bt_tiff_read_write)(bt_tiff_handle, void *, ptrdiff_t);
typedef uint64_t (*bt_tiff_seek)(bt_tiff_handle, uint64_t, int);
typedef int (*bt_tiff_close_proc)(bt_tiff_handle);
typedef uint64_t (*bt_tiff_size)(bt_tiff_handle);
typedef int (*bt_tiff_map)(bt_tiff_handle, void **, uint64_t *);
typedef void (*bt_tiff_unmap)(bt_tiff_handle, void *, uint64_t);
typedef void (*bt_tiff_handler)(const char *, const char *, va_list);

enum {
    BT_TIFFTAG_IMAGEWIDTH = 256,
    BT_TIFFTAG_IMAGELENGTH = 257,
    BT_TIFF_ORIENTATION_TOPLEFT = 1,
};

static struct {
    bt_tiff *(*client_open)(const char *, const char *, bt_tiff_handle, bt_tiff_read_write, bt_tiff_read_write,
                            bt_tiff_seek, bt_tiff_close_proc, bt_tiff_size, bt_tiff_map, bt_tiff_unmap);
    int (*get_field)(bt_tiff *, uint32_t, ...);
    int (*read_rgba_oriented)(bt_tiff *, uint32_t, uint32_t, uint32_t *, int, int);
    void (*close)(bt_tiff *);
} bt_tiff_library;
static int bt_tiff_loaded;
static pthread_once_t bt_tiff_once = PTHREAD_ONCE_INIT;

static void bt_tiff_load(void) {
    static const char *const names[] = {"libtiff.so.6", "libtiff.so.5", "libtiff.6.dylib", "libtiff.so"};
    void *handle = bt_open_library(names, sizeof(names) / sizeof(names[0]));
    if (handle == NULL) return;
    *(void **)&bt_tiff_library.client_open = dlsym(handle, "TIFFClientOpen");
    *(void **)&bt_tiff_library.get_field = dlsym(handle, "TIFFGetField");
    *(void **)&bt_tiff_library.read_rgba_oriented = dlsym(handle, "TIFFReadRGBAImageOriented");
    *(void **)&bt_tiff_library.close = dlsym(handle, "TIFFClose");
    bt_tiff_handler (*set_error)(bt_tiff_handler);
    bt_tiff_handler (*set_warning)(bt_tiff_handler);
    *(void **)&set_error = dlsym(handle, "TIFFSetErrorHandler");
    *(void **)&set_warning = dlsym(handle, "TIFFSetWarningHandler");
    if (bt_tiff_library.client_open == NULL || bt_tiff_library.get_field == NULL ||
        bt_tiff_library.read_rgba_oriented == NULL || bt_tiff_library.close == NULL || set_error == NULL ||
        set_warning == NULL)
        return;
    // The default handlers print to standard error: a hostile file would fill the server's log.
    set_error(NULL);
    set_warning(NULL);
    bt_tiff_loaded = 1;
}

int bt_tiff_available(void) {
    pthread_once(&bt_tiff_once, bt_tiff_load);
    return bt_tiff_loaded;
}

typedef struct bt_tiff_source {
    const uint8_t *data;
    uint64_t size;
    uint64_t offset;
} bt_tiff_source;

static ptrdiff_t bt_tiff_read(bt_tiff_handle handle, void *buffer, ptrdiff_t length) {
    bt_tiff_source *source = handle;
    if (length <= 0 || source->offset >= source->size) return 0;
    uint64_t count = source->size - source->offset;
    if ((uint64_t)length < count) count = (uint64_t)length;
    memcpy(buffer, source->data + source->offset, (size_t)count);
    source->offset += count;
    return (ptrdiff_t)count;
}

static ptrdiff_t bt_tiff_write(bt_tiff_handle handle, void *buffer, ptrdiff_t length) {
    (void)handle;
    (void)buffer;
    (void)length;
    return -1;
}

static uint64_t bt_tiff_seek_to(bt_tiff_handle handle, uint64_t offset, int whence) {
    bt_tiff_source *source = handle;
    uint64_t base = whence == SEEK_CUR ? source->offset : whence == SEEK_END ? source->size : 0;
    uint64_t target = base + offset;
    if (target < base || target > source->size) return (uint64_t)-1;
    source->offset = target;
    return target;
}

static int bt_tiff_close_source(bt_tiff_handle handle) {
    (void)handle;
    return 0;
}

static uint64_t bt_tiff_size_of(bt_tiff_handle handle) { return ((bt_tiff_source *)handle)->size; }

static int bt_tiff_no_map(bt_tiff_handle handle, void **base, uint64_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static void bt_tiff_no_unmap(bt_tiff_handle handle, void *base, uint64_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

int bt_tiff_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image) {
    memset(image, 0, sizeof(*image));
    if (!bt_tiff_available()) return BT_UNAVAILABLE;
    if (data == NULL || size < 8) return BT_UNDECODABLE;
    bt_tiff_source source = {data, size, 0};
    bt_tiff *tiff = bt_tiff_library.client_open(
        "picture", "rm", &source, bt_tiff_read, bt_tiff_write, bt_tiff_seek_to, bt_tiff_close_source, bt_tiff_size_of,
        bt_tiff_no_map, bt_tiff_no_unmap);
    if (tiff == NULL) return BT_UNDECODABLE;
    int status = BT_UNDECODABLE;
    uint32_t *raster = NULL;
    bt_resampler *resampler = NULL;
    uint32_t width = 0, height = 0;
    if (!bt_tiff_library.get_field(tiff, BT_TIFFTAG_IMAGEWIDTH, &width) ||
        !bt_tiff_library.get_field(tiff, BT_TIFFTAG_IMAGELENGTH, &height) || width == 0 || height == 0)
        goto done;
    // The pixel limit is checked from the directory, before the raster is allocated.
    if ((uint64_t)width * height > max_pixels) {
        status = BT_TOO_LARGE;
        goto done;
    }
    raster = malloc((size_t)width * height * sizeof(uint32_t));
    if (raster == NULL) {
        status = BT_NO_MEMORY;
        goto done;
    }
    // Any photometric interpretation, bit depth and compression libtiff knows, as 8-bit RGBA
    // rows, top row first, the file's own orientation applied.
    if (!bt_tiff_library.read_rgba_oriented(tiff, width, height, raster, BT_TIFF_ORIENTATION_TOPLEFT, 1)) goto done;
    resampler = bt_resampler_fitting(width, height, longest);
    if (resampler == NULL) {
        status = BT_NO_MEMORY;
        goto done;
    }
    // libtiff packs each pixel as A<<24 | B<<16 | G<<8 | R: in memory, R G B A on a little-endian
    // machine; spelled out so the order holds on any.
    uint8_t *row = malloc((size_t)width * 4);
    if (row == NULL) {
        status = BT_NO_MEMORY;
        goto done;
    }
    for (uint32_t y = 0; y < height; y++) {
        const uint32_t *pixels = raster + (size_t)y * width;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t pixel = pixels[x];
            row[x * 4] = pixel & 0xFF;
            row[x * 4 + 1] = (pixel >> 8) & 0xFF;
            row[x * 4 + 2] = (pixel >> 16) & 0xFF;
            row[x * 4 + 3] = (pixel >> 24) & 0xFF;
        }
        bt_resampler_add_row(resampler, row, 4);
    }
    free(row);
    bt_resampler_finish_into(resampler, image);
    resampler = NULL;
    image->source_width = width;
    image->source_height = height;
    status = BT_OK;
done:
    bt_resampler_discard(resampler);
    free(raster);
    bt_tiff_library.close(tiff);
    return status;
}
