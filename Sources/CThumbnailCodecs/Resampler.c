// Area averaging, fed one source row at a time: the decoders never hold the full-size picture.
#include "CThumbnailCodecs.h"

#include <stdlib.h>
#include <string.h>

struct bt_resampler {
    uint32_t source_width;
    uint32_t source_height;
    uint32_t width;
    uint32_t height;
    /// The first source column of each output column, and one past the last (`width + 1`
    /// entries): the source columns of an output column are a run, summed in registers.
    uint32_t *first_column;
    /// How many source columns fall into each output column.
    uint32_t *columns_in;
    /// Sums of the current output row, three per pixel.
    uint64_t *sums;
    /// Source rows added to the current output row, and which output row that is.
    uint32_t rows_in;
    uint32_t current;
    /// The next source row expected.
    uint32_t next_row;
    uint8_t *output;
};

void bt_fit(uint32_t width, uint32_t height, uint32_t longest, uint32_t *out_width, uint32_t *out_height) {
    uint32_t source_longest = width > height ? width : height;
    if (longest == 0 || source_longest <= longest) {
        *out_width = width;
        *out_height = height;
        return;
    }
    uint64_t scaled_width = ((uint64_t)width * longest + source_longest / 2) / source_longest;
    uint64_t scaled_height = ((uint64_t)height * longest + source_longest / 2) / source_longest;
    *out_width = scaled_width == 0 ? 1 : (uint32_t)scaled_width;
    *out_height = scaled_height == 0 ? 1 : (uint32_t)scaled_height;
}

bt_resampler *bt_resampler_fitting(uint32_t source_width, uint32_t source_height, uint32_t longest) {
    uint32_t width = 0, height = 0;
    bt_fit(source_width, source_height, longest, &width, &height);
    return bt_resampler_create(source_width, source_height, width, height);
}

bt_resampler *bt_resampler_create(uint32_t source_width, uint32_t source_height, uint32_t width, uint32_t height) {
    if (source_width == 0 || source_height == 0 || width == 0 || height == 0 || width > source_width ||
        height > source_height) {
        return NULL;
    }
    bt_resampler *resampler = calloc(1, sizeof(bt_resampler));
    if (resampler == NULL) return NULL;
    resampler->source_width = source_width;
    resampler->source_height = source_height;
    resampler->width = width;
    resampler->height = height;
    resampler->first_column = malloc(sizeof(uint32_t) * ((size_t)width + 1));
    resampler->columns_in = calloc(width, sizeof(uint32_t));
    resampler->sums = calloc((size_t)width * 3, sizeof(uint64_t));
    // Rows a damaged source never delivers stay mid-grey.
    resampler->output = malloc((size_t)width * height * 3);
    if (resampler->first_column == NULL || resampler->columns_in == NULL || resampler->sums == NULL ||
        resampler->output == NULL) {
        bt_resampler_discard(resampler);
        return NULL;
    }
    memset(resampler->output, 128, (size_t)width * height * 3);
    for (uint32_t x = 0; x < source_width; x++) {
        uint32_t column = (uint32_t)((uint64_t)x * width / source_width);
        if (resampler->columns_in[column]++ == 0) resampler->first_column[column] = x;
    }
    resampler->first_column[width] = source_width;
    return resampler;
}

static void bt_resampler_flush(bt_resampler *resampler) {
    if (resampler->rows_in == 0) return;
    uint8_t *out = resampler->output + (size_t)resampler->current * resampler->width * 3;
    for (uint32_t x = 0; x < resampler->width; x++) {
        uint64_t count = (uint64_t)resampler->columns_in[x] * resampler->rows_in;
        for (int channel = 0; channel < 3; channel++) {
            uint64_t *sum = &resampler->sums[(size_t)x * 3 + channel];
            out[(size_t)x * 3 + channel] = count == 0 ? 128 : (uint8_t)((*sum + count / 2) / count);
            *sum = 0;
        }
    }
    resampler->rows_in = 0;
}

void bt_resampler_add_row(bt_resampler *resampler, const uint8_t *row, uint32_t channels) {
    if (resampler->next_row >= resampler->source_height) return;
    uint32_t target = (uint32_t)((uint64_t)resampler->next_row * resampler->height / resampler->source_height);
    resampler->next_row += 1;
    if (target != resampler->current) {
        bt_resampler_flush(resampler);
        resampler->current = target;
    }
    uint64_t *sums = resampler->sums;
    const uint32_t *first = resampler->first_column;
    for (uint32_t column = 0; column < resampler->width; column++) {
        uint64_t red = 0, green = 0, blue = 0;
        if (channels == 4) {
            for (uint32_t x = first[column]; x < first[column + 1]; x++) {
                const uint8_t *pixel = row + (size_t)x * 4;
                uint32_t alpha = pixel[3];
                uint32_t white = 255 * (255 - alpha);
                red += (pixel[0] * alpha + white + 127) / 255;
                green += (pixel[1] * alpha + white + 127) / 255;
                blue += (pixel[2] * alpha + white + 127) / 255;
            }
        } else {
            for (uint32_t x = first[column]; x < first[column + 1]; x++) {
                const uint8_t *pixel = row + (size_t)x * 3;
                red += pixel[0];
                green += pixel[1];
                blue += pixel[2];
            }
        }
        sums[(size_t)column * 3] += red;
        sums[(size_t)column * 3 + 1] += green;
        sums[(size_t)column * 3 + 2] += blue;
    }
    resampler->rows_in += 1;
}

uint8_t *bt_resampler_finish(bt_resampler *resampler) {
    bt_resampler_flush(resampler);
    uint8_t *output = resampler->output;
    resampler->output = NULL;
    bt_resampler_discard(resampler);
    return output;
}

void bt_resampler_finish_into(bt_resampler *resampler, bt_image *image) {
    image->width = resampler->width;
    image->height = resampler->height;
    image->pixels = bt_resampler_finish(resampler);
}

void bt_resampler_discard(bt_resampler *resampler) {
    if (resampler == NULL) return;
    free(resampler->first_column);
    free(resampler->columns_in);
    free(resampler->sums);
    free(resampler->output);
    free(resampler);
}

void bt_free(void *pointer) { free(pointer); }
