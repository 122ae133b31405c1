#include "SwiftShapePNG.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

// The encoded bytes, grown as libpng writes.
struct output {
  uint8_t *data;
  size_t size;
  size_t capacity;
  int failed;
};

// What an error leaves for the caller: libpng's message, copied before the longjmp.
struct failure {
  char *message;
  size_t size;
};

static void write_bytes(png_structp png, png_bytep bytes, png_size_t count) {
  struct output *out = png_get_io_ptr(png);
  if (out->size + count > out->capacity) {
    size_t capacity = out->capacity ? out->capacity : 65536;
    while (capacity < out->size + count) capacity *= 2;
    uint8_t *grown = realloc(out->data, capacity);
    if (!grown) {
      out->failed = 1;
      png_error(png, "out of memory");
    }
    out->data = grown;
    out->capacity = capacity;
  }
  memcpy(out->data + out->size, bytes, count);
  out->size += count;
}

static void flush_bytes(png_structp png) { (void)png; }

static void report_error(png_structp png, png_const_charp message) {
  struct failure *failure = png_get_error_ptr(png);
  if (failure && failure->size > 0) {
    strncpy(failure->message, message, failure->size - 1);
    failure->message[failure->size - 1] = 0;
  }
  png_longjmp(png, 1);
}

static void ignore_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

int swiftshape_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int input_channels, size_t stride,
                          uint8_t **out, size_t *out_size, char *error, size_t error_size) {
  struct failure failure = {error, error_size};
  if (error_size > 0) error[0] = 0;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, report_error, ignore_warning);
  if (!png) return -1;
  png_infop info = png_create_info_struct(png);
  // `volatile`: the buffers are read after a longjmp back into this frame, to be freed.
  struct output output = {NULL, 0, 0, 0};
  struct output *volatile result = &output;
  uint8_t *volatile row_buffer = NULL;
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : NULL);
    free(result->data);
    free(row_buffer);
    if (error_size > 0 && error[0] == 0) strncpy(error, "libpng failed", error_size - 1);
    return -1;
  }
  // A picture with no color (black text on white, say) is written as gray, with alpha only when
  // some pixel is not opaque: a quarter (or half) of the bytes to filter and compress.
  // Each pixel is read as one 32-bit word (R, G, B, A in memory order).
  int gray = 1, opaque = 1;
  for (uint32_t row = 0; row < height && gray && input_channels == 4; row++) {
    const uint8_t *pixels = rgba + (size_t)row * stride;
    uint32_t differ = 0, alpha = 0xFF;
    for (uint32_t column = 0; column < width; column++) {
      uint8_t r = pixels[column * 4], g = pixels[column * 4 + 1], b = pixels[column * 4 + 2];
      differ |= (uint32_t)(r ^ g) | (uint32_t)(g ^ b);
      alpha &= pixels[column * 4 + 3];
    }
    if (differ) gray = 0;
    if (alpha != 0xFF) opaque = 0;
  }
  int channels = gray ? (opaque ? 1 : 2) : 4;
  int type = gray ? (opaque ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_GRAY_ALPHA) : PNG_COLOR_TYPE_RGB_ALPHA;
  png_set_write_fn(png, result, write_bytes, flush_bytes);
  png_set_IHDR(png, info, width, height, 8, type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  // One filter (Sub) and fast compression: libpng's default tries all five filters on every row,
  // which took 70% of the time of writing a 20-line paragraph (counted with callgrind), and level
  // 3 encodes pictures of text several times faster than the default of 6 at nearly the same size.
  png_set_filter(png, 0, PNG_FILTER_SUB);
  png_set_compression_level(png, 3);
  png_write_info(png, info);
  if (channels != 4) {
    row_buffer = malloc((size_t)width * channels);
    if (!row_buffer) png_error(png, "out of memory");
  }
  for (uint32_t row = 0; row < height; row++) {
    const uint8_t *source = rgba + (size_t)row * stride;
    if (channels == 4 || input_channels == 1) {
      png_write_row(png, (png_const_bytep)source);
      continue;
    }
    if (channels == 1) {
      for (uint32_t column = 0; column < width; column++) row_buffer[column] = source[column * 4];
    } else {
      for (uint32_t column = 0; column < width; column++) {
        row_buffer[column * 2] = source[column * 4];
        row_buffer[column * 2 + 1] = source[column * 4 + 3];
      }
    }
    png_write_row(png, row_buffer);
  }
  free(row_buffer);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  *out = result->data;
  *out_size = result->size;
  return 0;
}

void swiftshape_png_free(uint8_t *data) { free(data); }
