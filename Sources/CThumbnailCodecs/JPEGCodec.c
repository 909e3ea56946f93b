// libjpeg-turbo under setjmp: its error handler longjmps back into the function that called it,
// never past it.
#include "CThumbnailCodecs.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

/// Beyond this many progressive scans a file is refused (a few dozen is normal; thousands is
/// a file built to keep the decoder busy).
#define BT_JPEG_SCAN_LIMIT 500
/// The most libjpeg's own allocations may take for one decode.
#define BT_JPEG_MEMORY_LIMIT (256L * 1024 * 1024)

typedef struct bt_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    unsigned char *buffer;
    unsigned long length;
} bt_jpeg_error;

static void bt_jpeg_error_exit(j_common_ptr common) {
    bt_jpeg_error *error = (bt_jpeg_error *)common->err;
    longjmp(error->jump, 1);
}

static void bt_jpeg_quiet(j_common_ptr common) { (void)common; }

static void bt_jpeg_progress(j_common_ptr common) {
    if (common->is_decompressor) {
        j_decompress_ptr decompress = (j_decompress_ptr)common;
        if (decompress->input_scan_number > BT_JPEG_SCAN_LIMIT) bt_jpeg_error_exit(common);
    }
}

static void bt_jpeg_prepare_errors(bt_jpeg_error *error) {
    memset(error, 0, sizeof(*error));
    jpeg_std_error(&error->manager);
    error->manager.error_exit = bt_jpeg_error_exit;
    error->manager.output_message = bt_jpeg_quiet;
}

int bt_jpeg_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height) {
    struct jpeg_decompress_struct info;
    bt_jpeg_error error;
    if (data == NULL || size == 0 || size > ULONG_MAX) return BT_UNDECODABLE;
    bt_jpeg_prepare_errors(&error);
    info.err = &error.manager;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        return BT_UNDECODABLE;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK) {
        jpeg_destroy_decompress(&info);
        return BT_UNDECODABLE;
    }
    *width = info.image_width;
    *height = info.image_height;
    jpeg_destroy_decompress(&info);
    return BT_OK;
}

int bt_jpeg_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image) {
    int eighth = bt_jpeg_eighth_thumbnail(data, size, longest, max_pixels, image);
    if (eighth != BT_NOT_HANDLED) return eighth;
    return bt_jpeg_scaled_thumbnail(data, size, longest, max_pixels, image);
}

int bt_jpeg_scaled_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image) {
    struct jpeg_decompress_struct info;
    struct jpeg_progress_mgr progress;
    bt_jpeg_error error;
    bt_resampler *volatile resampler = NULL;
    uint8_t *volatile row = NULL;
    memset(image, 0, sizeof(*image));
    if (data == NULL || size == 0 || size > ULONG_MAX) return BT_UNDECODABLE;
    bt_jpeg_prepare_errors(&error);
    info.err = &error.manager;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        bt_resampler_discard(resampler);
        free(row);
        return BT_UNDECODABLE;
    }
    jpeg_create_decompress(&info);
    memset(&progress, 0, sizeof(progress));
    progress.progress_monitor = bt_jpeg_progress;
    info.progress = &progress;
    info.mem->max_memory_to_use = BT_JPEG_MEMORY_LIMIT;
    jpeg_mem_src(&info, data, (unsigned long)size);
    if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK || info.image_width == 0 || info.image_height == 0) {
        jpeg_destroy_decompress(&info);
        return BT_UNDECODABLE;
    }
    if ((uint64_t)info.image_width * info.image_height > max_pixels) {
        jpeg_destroy_decompress(&info);
        return BT_TOO_LARGE;
    }
    image->source_width = info.image_width;
    image->source_height = info.image_height;

    // The smallest DCT scale (n/8) whose image is at least the size asked for.
    uint32_t source_longest = info.image_width > info.image_height ? info.image_width : info.image_height;
    uint32_t wanted = longest == 0 || longest > source_longest ? source_longest : longest;
    unsigned int eighths = 1;
    while (eighths < 8 && ((uint64_t)source_longest * eighths + 7) / 8 < wanted) eighths++;
    info.scale_num = eighths;
    info.scale_denom = 8;
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    info.dct_method = JDCT_ISLOW;

    jpeg_start_decompress(&info);
    resampler = bt_resampler_fitting(info.output_width, info.output_height, wanted);
    row = malloc((size_t)info.output_width * info.output_components);
    if (resampler == NULL || row == NULL) {
        jpeg_destroy_decompress(&info);
        bt_resampler_discard(resampler);
        free(row);
        return BT_NO_MEMORY;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW rows[1] = {row};
        if (jpeg_read_scanlines(&info, rows, 1) != 1) break;
        if (cmyk) {
            // Adobe writes CMYK inverted: each byte is already 255 - ink.
            for (uint32_t x = 0; x < info.output_width; x++) {
                const uint8_t *ink = row + (size_t)x * 4;
                uint32_t black = ink[3];
                uint8_t *rgb = row + (size_t)x * 3;
                uint8_t red = (uint8_t)((ink[0] * black + 127) / 255);
                uint8_t green = (uint8_t)((ink[1] * black + 127) / 255);
                uint8_t blue = (uint8_t)((ink[2] * black + 127) / 255);
                rgb[0] = red;
                rgb[1] = green;
                rgb[2] = blue;
            }
        }
        bt_resampler_add_row(resampler, row, 3);
    }
    // A damaged tail has been filled in by the decoder; finishing would only report it.
    jpeg_destroy_decompress(&info);
    free(row);
    row = NULL;
    bt_resampler_finish_into(resampler, image);
    resampler = NULL;
    return BT_OK;
}

int bt_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, int quality, uint8_t **output, size_t *output_size) {
    struct jpeg_compress_struct info;
    bt_jpeg_error error;
    *output = NULL;
    *output_size = 0;
    if (rgb == NULL || width == 0 || height == 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        return BT_UNDECODABLE;
    }
    bt_jpeg_prepare_errors(&error);
    info.err = &error.manager;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&info);
        free(error.buffer);
        return BT_NO_MEMORY;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &error.buffer, &error.length);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    info.optimize_coding = TRUE;
    info.dct_method = JDCT_ISLOW;
    // Only the JFIF header: no EXIF, no ICC profile, no comment.
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW rows[1] = {(JSAMPROW)(rgb + (size_t)info.next_scanline * width * 3)};
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *output = error.buffer;
    *output_size = error.length;
    return BT_OK;
}
