// Helpers for tests that need the kernel, or libjpeg, directly.
#ifndef CTESTSUPPORT_H
#define CTESTSUPPORT_H

#include <stddef.h>
#include <stdint.h>

/// Drops (or restores) CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the calling thread's
/// effective set, so that a root test process meets permission checks like an ordinary user on
/// that one thread. Returns 0, or the errno value.
int cts_set_file_access_override(int enabled);

/// A pipe whose two ends are close-on-exec from the start (`pipe2` with `O_CLOEXEC`, which
/// Swift's Glibc module does not offer): no program another thread starts meanwhile inherits
/// an end. Returns 0, or -1 with errno set.
int cts_pipe_cloexec(int ends[2]);

/// How `cts_jpeg_encode` lays a JPEG out.
typedef struct cts_jpeg_layout {
    /// libjpeg's quality, 1 to 100.
    int quality;
    /// One grey component instead of YCbCr.
    int grey;
    /// The luma sampling factors (1 or 2 each; chroma stays at 1): 2 and 2 is 4:2:0.
    int luma_across;
    int luma_down;
    /// A restart marker every this many MCU rows (0: none).
    int restart_rows;
    /// A progressive JPEG instead of a baseline one.
    int progressive;
} cts_jpeg_layout;

/// RGB rows as a JPEG laid out as asked, by libjpeg. `*output` comes from malloc. Returns 0, or
/// -1 when libjpeg refused.
int cts_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, cts_jpeg_layout layout, uint8_t **output,
                    size_t *output_size);

#endif
