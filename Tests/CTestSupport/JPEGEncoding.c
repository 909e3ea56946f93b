// JPEGs in the layouts a camera or an editor writes, for tests of the thumbnail decoders.
#include "CTestSupport.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>

typedef struct cts_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
} cts_jpeg_error;

static void cts_jpeg_error_exit(j_common_ptr common) { longjmp(((cts_jpeg_error *)common->err)->jump, 1); }

int cts_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, cts_jpeg_layout layout, uint8_t **output,
                    size_t *output_size) {
    struct jpeg_compress_struct info;
    cts_jpeg_error error;
    unsigned char *volatile buffer = NULL;
    unsigned long length = 0;
    *output = NULL;
    *output_size = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = cts_jpeg_error_exit;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&buffer, &length);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, layout.quality, TRUE);
    if (layout.grey) {
        jpeg_set_colorspace(&info, JCS_GRAYSCALE);
    } else {
        info.comp_info[0].h_samp_factor = layout.luma_across;
        info.comp_info[0].v_samp_factor = layout.luma_down;
    }
    info.restart_in_rows = layout.restart_rows;
    if (layout.progressive) jpeg_simple_progression(&info);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW rows[1] = {(JSAMPROW)(rgb + (size_t)info.next_scanline * width * 3)};
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *output = buffer;
    *output_size = length;
    return 0;
}
