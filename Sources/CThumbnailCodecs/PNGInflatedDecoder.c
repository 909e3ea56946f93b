// The common PNG, faster: 8-bit grey, grey with alpha, RGB or RGBA, not interlaced, no
// transparency key. Its image data is inflated in one call by libdeflate (loaded at run time; the
// machine image has it, as libtiff's dependency, but not its headers), which inflates such data
// about 1.6 times as fast as zlib's streaming inflate that libpng drives; the rows are then
// unfiltered here and handed to the resampler as libpng's rows would be. Inflating in one call
// needs the whole image in memory, so the fast path takes a file only while the bytes it holds
// for all the decodes under way stay within a budget; past it, and for every other PNG, libpng
// decodes row by row in constant memory. Anything this file does not expect answers
// BT_NOT_HANDLED and libpng has the last word.
//
// The image data of a PNG is split over IDAT chunks (a 12-byte chunk header and checksum between
// every two pieces), and libdeflate wants it in one piece. Given bytes it may rearrange, the
// decoder moves the pieces together in place and puts every byte back after inflating; given
// read-only bytes, it gathers a copy.
#include "CThumbnailCodecs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/// The most the decodes under way may hold at once: the inflated rows of two 12-megapixel RGB
/// pictures decoded in place, or one picture's rows and a gathered copy of its compressed data.
#define BT_PNG_INFLATE_BUDGET (72u * 1024 * 1024)

typedef struct bt_deflate bt_deflate;

static struct {
    bt_deflate *(*alloc)(void);
    int (*zlib_decompress)(bt_deflate *, const void *, size_t, void *, size_t, size_t *);
    void (*free)(bt_deflate *);
} bt_deflate_library;
static int bt_deflate_loaded;
static pthread_once_t bt_deflate_once = PTHREAD_ONCE_INIT;
static _Atomic size_t bt_png_inflating;

static void bt_deflate_load(void) {
    static const char *const names[] = {"libdeflate.so.0", "libdeflate.0.dylib", "libdeflate.so"};
    void *handle = bt_open_library(names, sizeof(names) / sizeof(names[0]));
    if (handle == NULL) return;
    *(void **)&bt_deflate_library.alloc = dlsym(handle, "libdeflate_alloc_decompressor");
    *(void **)&bt_deflate_library.zlib_decompress = dlsym(handle, "libdeflate_zlib_decompress");
    *(void **)&bt_deflate_library.free = dlsym(handle, "libdeflate_free_decompressor");
    bt_deflate_loaded = bt_deflate_library.alloc != NULL && bt_deflate_library.zlib_decompress != NULL &&
                        bt_deflate_library.free != NULL;
}

int bt_png_inflated_available(void) {
    pthread_once(&bt_deflate_once, bt_deflate_load);
    return bt_deflate_loaded;
}

static inline uint32_t bt_be32(const uint8_t *at) {
    return (uint32_t)at[0] << 24 | (uint32_t)at[1] << 16 | (uint32_t)at[2] << 8 | at[3];
}

/// Takes `bytes` from the budget, or answers 0 when they do not fit.
static int bt_png_reserve(size_t bytes) {
    size_t current = atomic_load(&bt_png_inflating);
    do {
        if (bytes > BT_PNG_INFLATE_BUDGET || current > BT_PNG_INFLATE_BUDGET - bytes) return 0;
    } while (!atomic_compare_exchange_weak(&bt_png_inflating, &current, current + bytes));
    return 1;
}

static inline uint8_t bt_paeth(uint8_t left, uint8_t above, uint8_t corner) {
    int estimate = (int)left + (int)above - (int)corner;
    int to_left = abs(estimate - left), to_above = abs(estimate - above), to_corner = abs(estimate - corner);
    if (to_left <= to_above && to_left <= to_corner) return left;
    return to_above <= to_corner ? above : corner;
}

/// Undoes a row's filter in place; `above` is the previous row unfiltered, or NULL for the first.
/// 0 for a filter type PNG does not define.
static int bt_png_unfilter(uint8_t type, uint8_t *row, const uint8_t *above, size_t length, size_t pixel) {
    switch (type) {
    case 0: return 1;
    case 1:
        for (size_t i = pixel; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - pixel]);
        return 1;
    case 2:
        if (above != NULL) {
            for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + above[i]);
        }
        return 1;
    case 3:
        for (size_t i = 0; i < length; i++) {
            unsigned left = i >= pixel ? row[i - pixel] : 0, up = above != NULL ? above[i] : 0;
            row[i] = (uint8_t)(row[i] + ((left + up) >> 1));
        }
        return 1;
    case 4:
        for (size_t i = 0; i < length; i++) {
            uint8_t left = i >= pixel ? row[i - pixel] : 0, up = above != NULL ? above[i] : 0;
            uint8_t corner = i >= pixel && above != NULL ? above[i - pixel] : 0;
            row[i] = (uint8_t)(row[i] + bt_paeth(left, up, corner));
        }
        return 1;
    default: return 0;
    }
}

/// Moves the `count` IDAT payloads of a run of consecutive IDAT chunks (the first payload at
/// `first`) together, saving the 12 bytes between every two in `gaps`.
static void bt_png_join(uint8_t *first, const uint32_t *lengths, size_t count, uint8_t *gaps) {
    uint8_t *source = first, *target = first;
    for (size_t index = 0; index < count; index++) {
        if (index > 0) {
            memcpy(gaps + 12 * (index - 1), source - 12, 12);
            memmove(target, source, lengths[index]);
        }
        source += lengths[index] + 12;
        target += lengths[index];
    }
}

/// Undoes `bt_png_join`.
static void bt_png_split(uint8_t *first, const uint32_t *lengths, size_t count, const uint8_t *gaps) {
    size_t total = 0;
    for (size_t index = 0; index < count; index++) total += lengths[index];
    uint8_t *source = first + total, *target = first + total + 12 * (count - 1);
    for (size_t index = count; index-- > 1;) {
        source -= lengths[index];
        target -= lengths[index];
        memmove(target, source, lengths[index]);
        target -= 12;
        memcpy(target, gaps + 12 * (index - 1), 12);
    }
}

static int bt_png_inflated(const uint8_t *data, uint8_t *writable, size_t size, uint32_t longest, uint64_t max_pixels,
                           bt_image *image) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    memset(image, 0, sizeof(*image));
    if (data == NULL || size < 8 + 25 || memcmp(data, signature, 8) != 0) return BT_NOT_HANDLED;
    if (!bt_png_inflated_available()) return BT_NOT_HANDLED;

    // The header, and where the image data lies.
    if (bt_be32(data + 8) != 13 || memcmp(data + 12, "IHDR", 4) != 0) return BT_NOT_HANDLED;
    uint32_t width = bt_be32(data + 16), height = bt_be32(data + 20);
    uint8_t depth = data[24], color = data[25], compression = data[26], filter = data[27], interlace = data[28];
    if (width == 0 || height == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF || depth != 8 || compression != 0 ||
        filter != 0 || interlace != 0) {
        return BT_NOT_HANDLED;
    }
    size_t channels = color == 0 ? 1 : color == 2 ? 3 : color == 4 ? 2 : color == 6 ? 4 : 0;
    if (channels == 0 || (uint64_t)width * height > max_pixels) return BT_NOT_HANDLED;
    size_t compressed = 0, idat_chunks = 0, single = 0;
    size_t at = 8;
    int ended = 0, consecutive = 1, previous_idat = 0;
    while (!ended) {
        if (size - at < 12) return BT_NOT_HANDLED;
        size_t length = bt_be32(data + at);
        if (length > size - at - 12) return BT_NOT_HANDLED;
        const uint8_t *type = data + at + 4;
        int is_idat = memcmp(type, "IDAT", 4) == 0;
        if (is_idat && idat_chunks > 0 && !previous_idat) consecutive = 0;
        previous_idat = is_idat;
        if (is_idat) {
            compressed += length;
            if (idat_chunks++ == 0) single = at + 8;
        } else if (memcmp(type, "tRNS", 4) == 0) {
            return BT_NOT_HANDLED;
        } else if (memcmp(type, "IEND", 4) == 0) {
            ended = 1;
        }
        at += 12 + length;
    }
    // Image data split by another chunk is not a valid PNG: libpng says so.
    if (compressed == 0 || !consecutive) return BT_NOT_HANDLED;
    uint64_t stride = (uint64_t)width * channels;
    uint64_t inflated = (uint64_t)height * (stride + 1);
    int joins = idat_chunks > 1 && writable != NULL;
    size_t gathered = idat_chunks > 1 && !joins ? compressed : 0;
    if (inflated > BT_PNG_INFLATE_BUDGET || !bt_png_reserve((size_t)inflated + gathered)) return BT_NOT_HANDLED;

    int status = BT_NO_MEMORY;
    uint8_t *input = NULL, *pixels = NULL, *row = NULL, *gaps = NULL;
    uint32_t *lengths = NULL;
    bt_deflate *inflater = NULL;
    bt_resampler *resampler = NULL;
    if (idat_chunks > 1) {
        // The pieces follow one another: their lengths, read once, serve joining and gathering.
        lengths = malloc(sizeof(uint32_t) * idat_chunks);
        if (lengths == NULL) goto done;
        size_t chunk = single - 8;
        for (size_t index = 0; index < idat_chunks; index++) {
            lengths[index] = bt_be32(data + chunk);
            chunk += 12 + (size_t)lengths[index];
        }
    }
    if (joins) {
        gaps = malloc(12 * (idat_chunks - 1));
        if (gaps == NULL) goto done;
    } else if (idat_chunks > 1) {
        input = malloc(compressed);
        if (input == NULL) goto done;
        const uint8_t *piece = data + single;
        size_t written = 0;
        for (size_t index = 0; index < idat_chunks; index++) {
            memcpy(input + written, piece, lengths[index]);
            written += lengths[index];
            piece += lengths[index] + 12;
        }
    }
    pixels = malloc((size_t)inflated);
    inflater = bt_deflate_library.alloc();
    if (pixels == NULL || inflater == NULL) goto done;
    size_t produced = 0;
    const uint8_t *stream = input != NULL ? input : data + single;
    if (joins) bt_png_join(writable + single, lengths, idat_chunks, gaps);
    int inflate_status =
        bt_deflate_library.zlib_decompress(inflater, stream, compressed, pixels, (size_t)inflated, &produced);
    if (joins) bt_png_split(writable + single, lengths, idat_chunks, gaps);
    status = BT_NOT_HANDLED;
    if (inflate_status != 0 || produced != inflated) goto done;
    free(input);
    input = NULL;

    status = BT_NO_MEMORY;
    resampler = bt_resampler_fitting(width, height, longest);
    // Grey rows are widened to RGB (or RGBA) for the resampler.
    if (channels <= 2) row = malloc((size_t)width * (channels + 2));
    if (resampler == NULL || (channels <= 2 && row == NULL)) goto done;
    status = BT_NOT_HANDLED;
    const uint8_t *above = NULL;
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *line = pixels + (size_t)y * (size_t)(stride + 1);
        if (!bt_png_unfilter(line[0], line + 1, above, (size_t)stride, channels)) goto done;
        above = line + 1;
        if (channels == 1) {
            for (uint32_t x = 0; x < width; x++) row[3 * x] = row[3 * x + 1] = row[3 * x + 2] = above[x];
            bt_resampler_add_row(resampler, row, 3);
        } else if (channels == 2) {
            for (uint32_t x = 0; x < width; x++) {
                row[4 * x] = row[4 * x + 1] = row[4 * x + 2] = above[2 * x];
                row[4 * x + 3] = above[2 * x + 1];
            }
            bt_resampler_add_row(resampler, row, 4);
        } else {
            bt_resampler_add_row(resampler, above, (uint32_t)channels);
        }
    }
    bt_resampler_finish_into(resampler, image);
    resampler = NULL;
    image->source_width = width;
    image->source_height = height;
    status = BT_OK;
done:
    if (inflater != NULL) bt_deflate_library.free(inflater);
    free(input);
    free(pixels);
    free(row);
    free(lengths);
    free(gaps);
    bt_resampler_discard(resampler);
    atomic_fetch_sub(&bt_png_inflating, (size_t)inflated + gathered);
    return status;
}

int bt_png_inflated_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image) {
    return bt_png_inflated(data, NULL, size, longest, max_pixels, image);
}

int bt_png_inflated_thumbnail_in_place(uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels,
                                       bt_image *image) {
    return bt_png_inflated(data, data, size, longest, max_pixels, image);
}
