// libpng under setjmp: its errors longjmp back into the function that called it, never past it.
#include "CThumbnailCodecs.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

/// Interlaced pictures need the whole image in memory: above this many pixels they are refused.
#define BT_PNG_INTERLACED_LIMIT (40ULL * 1000 * 1000)
/// The most any one ancillary chunk (an ICC profile, compressed text) may take once inflated.
#define BT_PNG_CHUNK_LIMIT (8UL * 1024 * 1024)

typedef struct bt_png_source {
    const uint8_t *data;
    size_t size;
    size_t offset;
} bt_png_source;

static void bt_png_read(png_structp png, png_bytep out, size_t length) {
    bt_png_source *source = png_get_io_ptr(png);
    if (length > source->size - source->offset) png_error(png, "truncated");
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

static void bt_png_error(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

static void bt_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

int bt_png_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image) {
    int inflated = bt_png_inflated_thumbnail(data, size, longest, max_pixels, image);
    if (inflated != BT_NOT_HANDLED) return inflated;
    return bt_png_streamed_thumbnail(data, size, longest, max_pixels, image);
}

int bt_png_thumbnail_in_place(uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image) {
    int inflated = bt_png_inflated_thumbnail_in_place(data, size, longest, max_pixels, image);
    if (inflated != BT_NOT_HANDLED) return inflated;
    return bt_png_streamed_thumbnail(data, size, longest, max_pixels, image);
}

int bt_png_streamed_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image) {
    bt_png_source source = {data, size, 0};
    bt_resampler *volatile resampler = NULL;
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    memset(image, 0, sizeof(*image));
    if (data == NULL || size < 8 || png_sig_cmp(data, 0, 8) != 0) return BT_UNDECODABLE;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, bt_png_error, bt_png_warning);
    if (png == NULL) return BT_NO_MEMORY;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return BT_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        bt_resampler_discard(resampler);
        free(pixels);
        free(rows);
        return BT_UNDECODABLE;
    }
    png_set_read_fn(png, &source, bt_png_read);
    png_set_chunk_malloc_max(png, BT_PNG_CHUNK_LIMIT);
    // A thumbnail needs no checksums: damage shows as damage, as it does in a JPEG. Skipping the
    // CRC of every chunk and the Adler-32 of the image data saves about a twentieth of a decode.
    png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
#ifdef PNG_IGNORE_ADLER32
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(png, info);
    uint32_t source_width = png_get_image_width(png, info);
    uint32_t source_height = png_get_image_height(png, info);
    if (source_width == 0 || source_height == 0) {
        png_destroy_read_struct(&png, &info, NULL);
        return BT_UNDECODABLE;
    }
    uint64_t pixel_count = (uint64_t)source_width * source_height;
    int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    if (pixel_count > max_pixels || (interlaced && pixel_count > BT_PNG_INTERLACED_LIMIT)) {
        png_destroy_read_struct(&png, &info, NULL);
        return BT_TOO_LARGE;
    }
    image->source_width = source_width;
    image->source_height = source_height;

    // Everything becomes 8-bit RGB, or RGBA where there is transparency: palettes and low bit
    // depths expanded, transparency keys turned into alpha, 16-bit scaled down, grey made RGB.
    int color_type = png_get_color_type(png, info);
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    uint32_t channels = has_alpha ? 4 : 3;
    png_set_expand(png);
    png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes != (size_t)source_width * channels) png_error(png, "unexpected row size");

    resampler = bt_resampler_fitting(source_width, source_height, longest);
    pixels = malloc(interlaced ? row_bytes * source_height : row_bytes);
    if (interlaced && pixels != NULL) rows = malloc(sizeof(png_bytep) * source_height);
    if (resampler == NULL || pixels == NULL || (interlaced && rows == NULL)) {
        png_destroy_read_struct(&png, &info, NULL);
        bt_resampler_discard(resampler);
        free(pixels);
        free(rows);
        return BT_NO_MEMORY;
    }
    if (interlaced) {
        for (uint32_t y = 0; y < source_height; y++) rows[y] = pixels + row_bytes * y;
        (void)passes;
        png_read_image(png, rows);
        for (uint32_t y = 0; y < source_height; y++) bt_resampler_add_row(resampler, rows[y], channels);
    } else {
        for (uint32_t y = 0; y < source_height; y++) {
            png_read_row(png, pixels, NULL);
            bt_resampler_add_row(resampler, pixels, channels);
        }
    }
    png_destroy_read_struct(&png, &info, NULL);
    free(pixels);
    pixels = NULL;
    free(rows);
    rows = NULL;
    bt_resampler_finish_into(resampler, image);
    resampler = NULL;
    return BT_OK;
}
