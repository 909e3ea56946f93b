// The C side of the Thumbnails module: libjpeg-turbo and libpng called under their own setjmp,
// so that a longjmp from either library never crosses a Swift frame, and the area-averaging
// resampler the decoders feed row by row. Only plain types cross this boundary.
#ifndef CTHUMBNAILCODECS_H
#define CTHUMBNAILCODECS_H

#include <stddef.h>
#include <stdint.h>

/// What a call answers.
enum {
    /// Done.
    BT_OK = 0,
    /// The bytes are not an image this call decodes, or they are damaged past decoding.
    BT_UNDECODABLE = 1,
    /// The header claims more pixels than allowed; nothing was allocated for them.
    BT_TOO_LARGE = 2,
    /// An allocation failed.
    BT_NO_MEMORY = 3,
    /// The library this call needs is not installed.
    BT_UNAVAILABLE = 4,
    /// A fast path does not take this file: the general decoder does.
    BT_NOT_HANDLED = 5,
};

/// A decoded, downscaled picture: 8-bit RGB rows without padding (`pixels` from malloc, freed
/// with `bt_free`), and the size of the picture it came from.
typedef struct bt_image {
    uint8_t *pixels;
    uint32_t width;
    uint32_t height;
    uint32_t source_width;
    uint32_t source_height;
} bt_image;

/// Area averaging from `source_width` x `source_height` down to `width` x `height`, fed one
/// source row at a time (top to bottom): each output pixel is the mean of the source pixels
/// that fall into it. Holds one output row of sums and the output image.
typedef struct bt_resampler bt_resampler;

/// A resampler, or NULL when memory runs out.
bt_resampler *bt_resampler_create(uint32_t source_width, uint32_t source_height, uint32_t width, uint32_t height);
/// A resampler from `source_width` x `source_height` to the size ``bt_fit`` gives for
/// `longest` (the source's own size when it is no larger), or NULL when memory runs out.
bt_resampler *bt_resampler_fitting(uint32_t source_width, uint32_t source_height, uint32_t longest);
/// Adds source row `y` (rows in order). `channels` is 3 (RGB) or 4 (RGBA, composited on white).
void bt_resampler_add_row(bt_resampler *resampler, const uint8_t *row, uint32_t channels);
/// Hands over the output rows (freed with `bt_free`) and frees the resampler.
uint8_t *bt_resampler_finish(bt_resampler *resampler);
/// Finishes the resampler into `image`: its pixels and their size (the source size is the
/// caller's to set).
void bt_resampler_finish_into(bt_resampler *resampler, bt_image *image);
/// Frees a resampler that will not be finished.
void bt_resampler_discard(bt_resampler *resampler);

/// The longest side of an output no larger than `longest` for a `width` x `height` source,
/// keeping the aspect ratio: writes the output size.
void bt_fit(uint32_t width, uint32_t height, uint32_t longest, uint32_t *out_width, uint32_t *out_height);

/// Reads a JPEG's size from its header without decoding it.
int bt_jpeg_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height);

/// Decodes a JPEG down to at most `longest` pixels on its longest side: DCT scaling picks the
/// smallest scale whose image is at least `longest`, then area averaging finishes the job.
/// Refuses images above `max_pixels` from the header, before allocating for them. A baseline
/// JPEG wanted at an eighth or less goes through `bt_jpeg_eighth_thumbnail`, the rest through
/// `bt_jpeg_scaled_thumbnail`.
int bt_jpeg_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image);

/// `bt_jpeg_thumbnail` through libjpeg-turbo alone.
int bt_jpeg_scaled_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image);

/// The pixels libjpeg-turbo makes of a baseline Huffman JPEG (one scan of every component,
/// YCbCr or grey, sampling factors 1 or 2) at scale 1/8, from each block's DC coefficient with the
/// AC codes stepped over, then area averaged to at most `longest`. Answers BT_NOT_HANDLED for
/// every other file, for a size that needs more than an eighth, above `max_pixels`, and for
/// damaged entropy data: the general decoder has the last word on those.
int bt_jpeg_eighth_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image);

/// Decodes a PNG's first image down to at most `longest` pixels on its longest side (16-bit,
/// palette, grey and alpha handled; alpha composited on white). Refuses images above
/// `max_pixels` from the header, before allocating for them.
int bt_png_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image);

/// `bt_png_thumbnail` through libpng alone, row by row.
int bt_png_streamed_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image);

/// Whether libdeflate could be loaded (looked for once, on the first call).
int bt_png_inflated_available(void);

/// The pixels libpng makes of an 8-bit grey, grey-and-alpha, RGB or RGBA PNG that is not
/// interlaced and has no transparency key, its data inflated in one call by libdeflate. Answers
/// BT_NOT_HANDLED for every other PNG, above `max_pixels`, when libdeflate is missing, when the
/// decodes under way already hold their memory budget, and for damaged data: libpng decodes
/// those.
int bt_png_inflated_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image);

/// `bt_png_inflated_thumbnail` for bytes it may rearrange while it runs: the pieces of the image
/// data are moved together in place instead of copied, and every byte is back where it was when
/// the call returns. The decode then holds only the inflated rows beyond the file itself.
int bt_png_inflated_thumbnail_in_place(uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels,
                                       bt_image *image);

/// `bt_png_thumbnail` for bytes it may rearrange while it runs (restored before it returns).
int bt_png_thumbnail_in_place(uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image);

/// Whether libheif could be loaded (looked for once, on the first call).
int bt_heif_available(void);

/// Decodes a HEIF (HEIC) or AVIF file's primary image, turned as the file says (its rotations
/// and mirrors applied by libheif), down to at most `longest` pixels on its longest side (alpha
/// composited on white). Refuses images above `max_pixels` from the header, before decoding.
int bt_heif_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image);

/// Whether libtiff could be loaded (looked for once, on the first call).
int bt_tiff_available(void);

/// Decodes a TIFF's first image (any layout libtiff reads, its orientation tag applied) down to
/// at most `longest` pixels on its longest side (alpha composited on white). Refuses images above
/// `max_pixels` from the directory, before allocating for them.
int bt_tiff_thumbnail(const uint8_t *data, size_t size, uint32_t longest, uint64_t max_pixels, bt_image *image);

/// Encodes RGB rows as a baseline JPEG with optimized Huffman tables and no metadata at all.
/// `*output` comes from malloc (freed with `bt_free`).
int bt_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, int quality, uint8_t **output, size_t *output_size);

/// The first of `names` that `dlopen` loads (privately, all symbols bound now), or NULL.
void *bt_open_library(const char *const *names, size_t count);

/// Hands the memory the allocator holds free back to the system (glibc's `malloc_trim`; nothing
/// elsewhere).
void bt_trim_heap(void);

/// Frees what this module allocated.
void bt_free(void *pointer);

#endif
