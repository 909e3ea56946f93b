// The common thumbnail, fast: a baseline JPEG shown at an eighth of its size. At that scale each
// 8x8 block becomes one pixel whose value is the block's DC coefficient alone, so the other 63
// coefficients only have to be stepped over, never computed. libjpeg-turbo's decoder does the same
// arithmetic but reads every coefficient's Huffman code one at a time; here the AC codes are
// stepped over several at once through a table built from the file's own Huffman tables, and the
// byte stuffing is taken out of the scan before decoding starts. The pixels are the ones
// libjpeg-turbo makes at scale 1/8 (its 1x1 inverse DCT, plain chroma replication, its YCbCr
// arithmetic): a test compares the two byte for byte.
//
// Anything outside that narrow case is not this decoder's: other frame types (progressive,
// arithmetic, lossless, 12-bit), scans that do not hold every component, RGB or CMYK colour,
// sampling factors above 2, an invalid Huffman table, and damaged entropy data all answer
// BT_NOT_HANDLED, and libjpeg-turbo decodes the file instead. The decoder never reads outside
// its own copy of the scan: the copy ends in zero padding longer than the most one MCU can
// consume, and decoding stops once the position passes the data.
#include "CThumbnailCodecs.h"

#include <stdlib.h>
#include <string.h>

/// Bits a table looks at in one step.
#define BT_EIGHTH_LOOKUP 12
#define BT_EIGHTH_ENTRIES (1u << BT_EIGHTH_LOOKUP)
/// Zero bytes after the unstuffed scan: more than ten blocks of the longest codes can take.
#define BT_EIGHTH_PADDING 4096
#define BT_EIGHTH_MAX_BLOCKS 10

/// A Huffman table in canonical form, for codes longer than the lookup.
typedef struct bt_huffman {
    int32_t max_code[18];
    int32_t value_offset[17];
    uint8_t values[256];
    /// Step tables: for DC, `length | size << 8`; for AC, `single` is `length + size | rs << 8`
    /// for one code, and `multi` is `bits | advance << 8 | end << 16 | 1 << 20` for as many
    /// whole codes (with their extra bits) as fit in the lookup, stopping after an end of block.
    uint16_t single[BT_EIGHTH_ENTRIES];
    uint32_t multi[BT_EIGHTH_ENTRIES];
    int defined;
} bt_huffman;

typedef struct bt_component {
    int id;
    int h;
    int v;
    int quant;
    int dc_table;
    int ac_table;
    /// Its plane at an eighth: one byte per block, padded to whole MCUs.
    uint8_t *plane;
    size_t plane_width;
    /// Whether it is sampled at half the rate of the largest factor across, and down.
    int half_across;
    int half_down;
} bt_component;

typedef struct bt_bits {
    const uint8_t *data;
    uint64_t position;
    uint64_t buffer;
    int count;
} bt_bits;

static inline void bt_bits_fill(bt_bits *bits) {
    if (bits->count < 32) {
        uint64_t word;
        memcpy(&word, bits->data + (bits->position >> 3), 8);
        bits->buffer = __builtin_bswap64(word) << (bits->position & 7);
        bits->count = 64 - (int)(bits->position & 7);
    }
}

static inline uint32_t bt_bits_peek(const bt_bits *bits, int count) {
    return (uint32_t)(bits->buffer >> (64 - count));
}

static inline void bt_bits_drop(bt_bits *bits, int count) {
    bits->position += (uint64_t)count;
    bits->buffer <<= count;
    bits->count -= count;
}

/// A code longer than the lookup, one bit at a time: its value, or -1 for no code. Inlined, so
/// that the bit reader stays in registers.
static inline __attribute__((always_inline)) int bt_huffman_slow(bt_bits *bits, const bt_huffman *table) {
    for (int length = 1; length <= 16; length++) {
        int32_t code = (int32_t)bt_bits_peek(bits, length);
        if (code <= table->max_code[length]) {
            bt_bits_drop(bits, length);
            return table->values[table->value_offset[length] + code];
        }
    }
    return -1;
}

/// Builds `table` from a DHT entry; 0 when the table is not a valid prefix code.
static int bt_huffman_build(bt_huffman *table, const uint8_t counts[17], const uint8_t *values, int total, int is_dc) {
    int32_t code = 0;
    int index = 0;
    uint16_t codes[256];
    uint8_t lengths[256];
    memset(table->single, 0, sizeof(table->single));
    for (int length = 1; length <= 16; length++) {
        table->value_offset[length] = index - code;
        for (int i = 0; i < counts[length]; i++) {
            codes[index] = (uint16_t)code;
            lengths[index] = (uint8_t)length;
            index++;
            code++;
        }
        // As libjpeg: a code of all ones is reserved, so the codes must stop short of it.
        if (code >= (1 << length)) return 0;
        table->max_code[length] = counts[length] ? code - 1 : -1;
        code <<= 1;
    }
    table->max_code[17] = INT32_MAX;
    memcpy(table->values, values, (size_t)total);
    for (int i = 0; i < total; i++) {
        int length = lengths[i];
        int size = is_dc ? values[i] : values[i] & 15;
        // A DC size past 11 is not 8-bit data.
        if (is_dc && size > 11) return 0;
        if (length > BT_EIGHTH_LOOKUP) continue;
        uint32_t first = (uint32_t)codes[i] << (BT_EIGHTH_LOOKUP - length);
        uint32_t span = 1u << (BT_EIGHTH_LOOKUP - length);
        uint16_t entry = is_dc ? (uint16_t)(length | size << 8) : (uint16_t)((length + size) | values[i] << 8);
        for (uint32_t j = 0; j < span; j++) table->single[first + j] = entry;
    }
    if (is_dc) return 1;
    for (uint32_t pattern = 0; pattern < BT_EIGHTH_ENTRIES; pattern++) {
        int used = 0, advance = 0, end = 0, whole = 0;
        while (used < BT_EIGHTH_LOOKUP) {
            uint16_t entry = table->single[(pattern << used) & (BT_EIGHTH_ENTRIES - 1)];
            if (entry == 0) break;
            int rs = entry >> 8;
            int total_bits = entry & 255;
            // The shifted pattern is zero-filled: only a code and its extra bits that lie
            // wholly inside the known bits count.
            if (used + total_bits > BT_EIGHTH_LOOKUP) break;
            used += total_bits;
            whole++;
            // No value and no run of 16: the end of the block (as libjpeg reads any such code).
            if ((rs & 15) == 0 && rs != 0xF0) {
                end = 1;
                break;
            }
            advance += rs == 0xF0 ? 16 : (rs >> 4) + 1;
        }
        table->multi[pattern] = whole ? (uint32_t)used | (uint32_t)advance << 8 | (uint32_t)end << 16 | 1u << 20 : 0;
    }
    return 1;
}

static inline uint16_t bt_read16(const uint8_t *at) { return (uint16_t)(at[0] << 8 | at[1]); }

typedef struct bt_eighth {
    bt_huffman *tables;  // 4 DC, then 4 AC
    uint16_t quant[4];
    int quant_defined[4];
    bt_component components[3];
    int component_count;
    uint32_t width;
    uint32_t height;
    int frame_seen;
    int adobe_transform;  // -1 when there is no Adobe segment
    uint32_t restart_interval;
    const uint8_t *scan;
} bt_eighth;

/// Reads the markers up to the first scan. 1 when this decoder takes the file.
static int bt_eighth_read_header(bt_eighth *jpeg, const uint8_t *data, size_t size) {
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return 0;
    size_t at = 2;
    for (;;) {
        while (at < size && data[at] != 0xFF) at++;
        while (at < size && data[at] == 0xFF) at++;
        if (at >= size) return 0;
        uint8_t marker = data[at++];
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;
        if (marker == 0xD9 || at + 2 > size) return 0;
        size_t length = bt_read16(data + at);
        if (length < 2 || at + length > size) return 0;
        const uint8_t *segment = data + at + 2;
        size_t body = length - 2;
        at += length;
        switch (marker) {
        case 0xC0:
        case 0xC1: {
            if (jpeg->frame_seen || body < 6 || segment[0] != 8) return 0;
            jpeg->frame_seen = 1;
            jpeg->height = bt_read16(segment + 1);
            jpeg->width = bt_read16(segment + 3);
            int count = segment[5];
            if (jpeg->height == 0 || jpeg->width == 0 || (count != 1 && count != 3) || body < 6 + 3 * (size_t)count) {
                return 0;
            }
            jpeg->component_count = count;
            for (int i = 0; i < count; i++) {
                bt_component *component = &jpeg->components[i];
                component->id = segment[6 + 3 * i];
                component->h = segment[7 + 3 * i] >> 4;
                component->v = segment[7 + 3 * i] & 15;
                component->quant = segment[8 + 3 * i];
                if (component->h < 1 || component->h > 2 || component->v < 1 || component->v > 2 || component->quant > 3) {
                    return 0;
                }
            }
            break;
        }
        case 0xC4: {
            size_t offset = 0;
            while (offset < body) {
                if (body - offset < 17) return 0;
                int table_class = segment[offset] >> 4, slot = segment[offset] & 15;
                if (table_class > 1 || slot > 3) return 0;
                uint8_t counts[17] = {0};
                int total = 0;
                for (int length = 1; length <= 16; length++) {
                    counts[length] = segment[offset + length];
                    total += counts[length];
                }
                if (total > 256 || body - offset - 17 < (size_t)total) return 0;
                bt_huffman *table = &jpeg->tables[table_class * 4 + slot];
                if (!bt_huffman_build(table, counts, segment + offset + 17, total, table_class == 0)) return 0;
                table->defined = 1;
                offset += 17 + (size_t)total;
            }
            break;
        }
        case 0xDB: {
            size_t offset = 0;
            while (offset < body) {
                int precision = segment[offset] >> 4, slot = segment[offset] & 15;
                size_t entry = precision ? 128 : 64;
                if (precision > 1 || slot > 3 || body - offset - 1 < entry) return 0;
                jpeg->quant[slot] = precision ? bt_read16(segment + offset + 1) : segment[offset + 1];
                jpeg->quant_defined[slot] = 1;
                offset += 1 + entry;
            }
            break;
        }
        case 0xDD:
            if (body < 2) return 0;
            jpeg->restart_interval = bt_read16(segment);
            break;
        case 0xEE:
            if (body >= 12 && memcmp(segment, "Adobe", 5) == 0) jpeg->adobe_transform = segment[11];
            break;
        case 0xDA: {
            if (!jpeg->frame_seen || body < 1) return 0;
            int count = segment[0];
            if (count != jpeg->component_count || body < 4 + 2 * (size_t)count) return 0;
            for (int i = 0; i < count; i++) {
                bt_component *component = &jpeg->components[i];
                if (segment[1 + 2 * i] != component->id) return 0;
                component->dc_table = segment[2 + 2 * i] >> 4;
                component->ac_table = segment[2 + 2 * i] & 15;
                if (component->dc_table > 3 || component->ac_table > 3) return 0;
                if (!jpeg->tables[component->dc_table].defined || !jpeg->tables[4 + component->ac_table].defined) {
                    return 0;
                }
                if (!jpeg->quant_defined[component->quant]) return 0;
            }
            // Baseline: the whole spectrum in one pass.
            const uint8_t *tail = segment + 1 + 2 * count;
            if (tail[0] != 0 || tail[1] != 63 || tail[2] != 0) return 0;
            jpeg->scan = data + at;
            return 1;
        }
        default:
            // Any other frame type is libjpeg-turbo's.
            if (marker >= 0xC2 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) return 0;
            break;
        }
    }
}

/// The scan without its byte stuffing, padded with zeros; `starts` gets the byte offset of each
/// restart interval after the first. NULL when memory runs out.
static uint8_t *bt_eighth_unstuff(const uint8_t *scan, const uint8_t *end, size_t *length, size_t **starts, size_t *start_count) {
    uint8_t *out = malloc((size_t)(end - scan) + BT_EIGHTH_PADDING);
    if (out == NULL) return NULL;
    size_t count = 0, capacity = 0, written = 0;
    size_t *offsets = NULL;
    const uint8_t *at = scan;
    while (at < end) {
        const uint8_t *mark = memchr(at, 0xFF, (size_t)(end - at));
        if (mark == NULL) mark = end;
        memcpy(out + written, at, (size_t)(mark - at));
        written += (size_t)(mark - at);
        at = mark;
        if (at >= end) break;
        const uint8_t *next = at + 1;
        while (next < end && *next == 0xFF) next++;
        if (next >= end) break;
        if (*next == 0x00) {
            out[written++] = 0xFF;
            at = next + 1;
        } else if (*next >= 0xD0 && *next <= 0xD7) {
            if (count == capacity) {
                capacity = capacity ? capacity * 2 : 64;
                size_t *grown = realloc(offsets, capacity * sizeof(size_t));
                if (grown == NULL) {
                    free(offsets);
                    free(out);
                    return NULL;
                }
                offsets = grown;
            }
            offsets[count++] = written;
            at = next + 1;
        } else {
            break;
        }
    }
    memset(out + written, 0, BT_EIGHTH_PADDING);
    *length = written;
    *starts = offsets;
    *start_count = count;
    return out;
}

/// Decodes the scan into the component planes. 1 when every MCU was read from real data.
static int bt_eighth_decode(bt_eighth *jpeg, const uint8_t *stream, size_t length, const size_t *starts, size_t start_count,
                            uint32_t mcus_across, uint32_t mcus_down) {
    int block_component[BT_EIGHTH_MAX_BLOCKS], block_dx[BT_EIGHTH_MAX_BLOCKS], block_dy[BT_EIGHTH_MAX_BLOCKS];
    int blocks = 0;
    int single = jpeg->component_count == 1;
    for (int c = 0; c < jpeg->component_count; c++) {
        bt_component *component = &jpeg->components[c];
        int h = single ? 1 : component->h, v = single ? 1 : component->v;
        for (int y = 0; y < v; y++) {
            for (int x = 0; x < h; x++) {
                block_component[blocks] = c;
                block_dx[blocks] = x;
                block_dy[blocks] = y;
                blocks++;
            }
        }
    }
    uint64_t limit = (uint64_t)length * 8;
    bt_bits bits = {stream, 0, 0, 0};
    uint32_t predictor[3] = {0, 0, 0};
    uint32_t until_restart = jpeg->restart_interval;
    size_t next_start = 0;
    for (uint32_t my = 0; my < mcus_down; my++) {
        for (uint32_t mx = 0; mx < mcus_across; mx++) {
            if (jpeg->restart_interval) {
                if (until_restart == 0) {
                    if (next_start >= start_count) return 0;
                    bits.position = (uint64_t)starts[next_start++] * 8;
                    bits.count = 0;
                    predictor[0] = predictor[1] = predictor[2] = 0;
                    until_restart = jpeg->restart_interval;
                }
                until_restart--;
            }
            for (int b = 0; b < blocks; b++) {
                bt_component *component = &jpeg->components[block_component[b]];
                const bt_huffman *dc = &jpeg->tables[component->dc_table];
                const bt_huffman *ac = &jpeg->tables[4 + component->ac_table];
                bt_bits_fill(&bits);
                uint16_t entry = dc->single[bt_bits_peek(&bits, BT_EIGHTH_LOOKUP)];
                int size;
                if (entry) {
                    bt_bits_drop(&bits, entry & 255);
                    size = entry >> 8;
                } else {
                    size = bt_huffman_slow(&bits, dc);
                    if (size < 0 || size > 11) return 0;
                }
                uint32_t difference = 0;
                if (size) {
                    uint32_t raw = bt_bits_peek(&bits, size);
                    bt_bits_drop(&bits, size);
                    difference = raw < (1u << (size - 1)) ? raw - ((1u << size) - 1) : raw;
                }
                predictor[block_component[b]] += difference;
                int64_t dequantized = (int64_t)(int16_t)predictor[block_component[b]] * jpeg->quant[component->quant];
                int64_t value = ((dequantized + 4) >> 3) + 128;
                uint8_t pixel = value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value;
                size_t x = single ? mx : (size_t)mx * (size_t)component->h + (size_t)block_dx[b];
                size_t y = single ? my : (size_t)my * (size_t)component->v + (size_t)block_dy[b];
                component->plane[y * component->plane_width + x] = pixel;

                // The 63 AC coefficients, stepped over.
                int k = 1;
                while (k < 64) {
                    bt_bits_fill(&bits);
                    uint32_t step = ac->multi[bt_bits_peek(&bits, BT_EIGHTH_LOOKUP)];
                    if (step) {
                        int advance = (int)(step >> 8 & 255);
                        int ends = (int)(step >> 16 & 1);
                        // An end of block only while coefficients remain; otherwise the
                        // block ended earlier and the rest of the step is the next block's.
                        if (k + advance <= (ends ? 63 : 64)) {
                            bt_bits_drop(&bits, (int)(step & 255));
                            k += advance;
                            if (ends) break;
                            continue;
                        }
                    }
                    uint16_t one = ac->single[bt_bits_peek(&bits, BT_EIGHTH_LOOKUP)];
                    int rs;
                    if (one) {
                        bt_bits_drop(&bits, (one & 255) - (one >> 8 & 15));
                        rs = one >> 8;
                    } else {
                        rs = bt_huffman_slow(&bits, ac);
                        if (rs < 0) return 0;
                    }
                    int run = rs >> 4, value_size = rs & 15;
                    if (value_size) {
                        bt_bits_drop(&bits, value_size);
                        k += run + 1;
                    } else {
                        if (run != 15) break;
                        k += 16;
                    }
                }
                // A block that overran its 63 coefficients is damaged data.
                if (k > 64) return 0;
            }
            if (bits.position > limit) return 0;
        }
    }
    return 1;
}

/// The YCbCr to RGB arithmetic of libjpeg-turbo (16-bit fixed point, rounded the same way).
typedef struct bt_ycc_tables {
    int red_cr[256];
    int blue_cb[256];
    int32_t green_cr[256];
    int32_t green_cb[256];
} bt_ycc_tables;

static void bt_ycc_prepare(bt_ycc_tables *tables) {
    const int32_t one_half = 1 << 15;
    for (int i = 0; i < 256; i++) {
        int32_t x = i - 128;
        tables->red_cr[i] = (int)((91881 * x + one_half) >> 16);
        tables->blue_cb[i] = (int)((116130 * x + one_half) >> 16);
        tables->green_cr[i] = -46802 * x;
        tables->green_cb[i] = -22554 * x + one_half;
    }
}

/// A component's value at pixel (x, y) of the eighth-size picture. A component sampled at half
/// the rate in a direction is interpolated there, three parts the nearest sample to one part the
/// next one over (the triangle filter libjpeg uses when it upsamples): libjpeg-turbo itself gets
/// such a component at this scale from a 2x2 inverse DCT of its low frequencies, so the two differ
/// by a level or two except at sharp colour edges.
static inline int bt_eighth_sample(const bt_component *component, uint32_t x, uint32_t y, uint32_t mcus_down) {
    size_t width = component->plane_width;
    if (!component->half_across && !component->half_down) return component->plane[(size_t)y * width + x];
    size_t rows = (size_t)mcus_down * (size_t)component->v;
    size_t cx = x >> component->half_across, cy = y >> component->half_down;
    size_t nx = cx, ny = cy;
    int near_x = 4, near_y = 4;
    if (component->half_across) {
        near_x = 3;
        nx = (x & 1) ? (cx + 1 < width ? cx + 1 : cx) : (cx > 0 ? cx - 1 : 0);
    }
    if (component->half_down) {
        near_y = 3;
        ny = (y & 1) ? (cy + 1 < rows ? cy + 1 : cy) : (cy > 0 ? cy - 1 : 0);
    }
    const uint8_t *plane = component->plane;
    int sum = near_y * (near_x * plane[cy * width + cx] + (4 - near_x) * plane[cy * width + nx]) +
              (4 - near_y) * (near_x * plane[ny * width + cx] + (4 - near_x) * plane[ny * width + nx]);
    return (sum + 8) >> 4;
}

static inline uint8_t bt_clamp(int value) { return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value; }

int bt_jpeg_eighth_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image) {
    memset(image, 0, sizeof(*image));
    if (data == NULL || size == 0) return BT_NOT_HANDLED;
    bt_eighth jpeg;
    memset(&jpeg, 0, sizeof(jpeg));
    jpeg.adobe_transform = -1;
    jpeg.tables = calloc(8, sizeof(bt_huffman));
    if (jpeg.tables == NULL) return BT_NO_MEMORY;
    int status = BT_NOT_HANDLED;
    uint8_t *stream = NULL;
    size_t *starts = NULL;
    bt_resampler *resampler = NULL;
    uint8_t *row = NULL;
    if (!bt_eighth_read_header(&jpeg, data, size)) goto done;
    if ((uint64_t)jpeg.width * jpeg.height > max_pixels) goto done;
    if (jpeg.component_count == 3) {
        // Colour that is not YCbCr is libjpeg-turbo's to work out.
        if (jpeg.adobe_transform == 0) goto done;
        if (jpeg.components[0].id == 'R' && jpeg.components[1].id == 'G' && jpeg.components[2].id == 'B') goto done;
    }
    uint32_t source_longest = jpeg.width > jpeg.height ? jpeg.width : jpeg.height;
    uint32_t wanted = longest == 0 || longest > source_longest ? source_longest : longest;
    if (((uint64_t)source_longest + 7) / 8 < wanted) goto done;

    int h_max = 1, v_max = 1, blocks = 0;
    // One grey component is read block by block, whatever its sampling factors say.
    for (int c = 0; jpeg.component_count == 3 && c < 3; c++) {
        if (jpeg.components[c].h > h_max) h_max = jpeg.components[c].h;
        if (jpeg.components[c].v > v_max) v_max = jpeg.components[c].v;
        blocks += jpeg.components[c].h * jpeg.components[c].v;
    }
    if (blocks > BT_EIGHTH_MAX_BLOCKS) goto done;
    uint32_t mcus_across = (jpeg.width + 8 * (uint32_t)h_max - 1) / (8 * (uint32_t)h_max);
    uint32_t mcus_down = (jpeg.height + 8 * (uint32_t)v_max - 1) / (8 * (uint32_t)v_max);
    status = BT_NO_MEMORY;
    for (int c = 0; c < jpeg.component_count; c++) {
        bt_component *component = &jpeg.components[c];
        int h = jpeg.component_count == 1 ? 1 : component->h, v = jpeg.component_count == 1 ? 1 : component->v;
        component->plane_width = (size_t)mcus_across * (size_t)h;
        component->half_across = h < h_max;
        component->half_down = v < v_max;
        component->plane = malloc(component->plane_width * (size_t)mcus_down * (size_t)v);
        if (component->plane == NULL) goto done;
    }
    size_t length = 0, start_count = 0;
    stream = bt_eighth_unstuff(jpeg.scan, data + size, &length, &starts, &start_count);
    if (stream == NULL) goto done;
    if (!bt_eighth_decode(&jpeg, stream, length, starts, start_count, mcus_across, mcus_down)) {
        status = BT_NOT_HANDLED;
        goto done;
    }

    uint32_t eighth_width = (jpeg.width + 7) / 8, eighth_height = (jpeg.height + 7) / 8;
    resampler = bt_resampler_fitting(eighth_width, eighth_height, wanted);
    row = malloc((size_t)eighth_width * 3);
    if (resampler == NULL || row == NULL) goto done;
    bt_ycc_tables ycc;
    bt_ycc_prepare(&ycc);
    for (uint32_t y = 0; y < eighth_height; y++) {
        if (jpeg.component_count == 1) {
            const uint8_t *grey = jpeg.components[0].plane + (size_t)y * jpeg.components[0].plane_width;
            for (uint32_t x = 0; x < eighth_width; x++) row[3 * x] = row[3 * x + 1] = row[3 * x + 2] = grey[x];
        } else {
            const bt_component *luma = &jpeg.components[0], *blue = &jpeg.components[1], *red = &jpeg.components[2];
            for (uint32_t x = 0; x < eighth_width; x++) {
                int luminance = bt_eighth_sample(luma, x, y, mcus_down);
                int cb = bt_eighth_sample(blue, x, y, mcus_down);
                int cr = bt_eighth_sample(red, x, y, mcus_down);
                row[3 * x] = bt_clamp(luminance + ycc.red_cr[cr]);
                row[3 * x + 1] = bt_clamp(luminance + (int)((ycc.green_cb[cb] + ycc.green_cr[cr]) >> 16));
                row[3 * x + 2] = bt_clamp(luminance + ycc.blue_cb[cb]);
            }
        }
        bt_resampler_add_row(resampler, row, 3);
    }
    bt_resampler_finish_into(resampler, image);
    resampler = NULL;
    image->source_width = jpeg.width;
    image->source_height = jpeg.height;
    status = BT_OK;
done:
    for (int c = 0; c < 3; c++) free(jpeg.components[c].plane);
    free(jpeg.tables);
    free(stream);
    free(starts);
    free(row);
    bt_resampler_discard(resampler);
    return status;
}
