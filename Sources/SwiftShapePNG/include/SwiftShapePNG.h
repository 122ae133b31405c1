// PNG encoding with libpng, in C: libpng reports errors by longjmp, which Swift cannot catch, so
// the calls and their setjmp live here.
#ifndef SWIFTSHAPE_PNG_H
#define SWIFTSHAPE_PNG_H

#include <stddef.h>
#include <stdint.h>

/// Encodes `height` rows of `width` pixels (8 bits a channel; `channels` 4 for RGBA, not
/// premultiplied, or 1 for gray; rows `stride` bytes apart) as a PNG. On success returns 0 and sets `*out` (free it with
/// swiftshape_png_free) and `*out_size`; on failure returns -1 and writes libpng's message into
/// `error` (at most `error_size` bytes, NUL-terminated).
int swiftshape_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int channels, size_t stride,
                          uint8_t **out, size_t *out_size, char *error, size_t error_size);

void swiftshape_png_free(uint8_t *data);

#endif
