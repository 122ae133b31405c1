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

int swiftshape_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                          uint8_t **out, size_t *out_size, char *error, size_t error_size) {
  struct failure failure = {error, error_size};
  if (error_size > 0) error[0] = 0;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, report_error, ignore_warning);
  if (!png) return -1;
  png_infop info = png_create_info_struct(png);
  // `volatile`: the buffer is read after a longjmp back into this frame.
  struct output output = {NULL, 0, 0, 0};
  struct output *volatile result = &output;
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : NULL);
    free(result->data);
    if (error_size > 0 && error[0] == 0) strncpy(error, "libpng failed", error_size - 1);
    return -1;
  }
  png_set_write_fn(png, result, write_bytes, flush_bytes);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  // Fast compression: pictures of text compress well at level 3 and encode several times faster
  // than at libpng's default of 6.
  png_set_compression_level(png, 3);
  png_write_info(png, info);
  for (uint32_t row = 0; row < height; row++) {
    png_write_row(png, (png_const_bytep)(rgba + (size_t)row * stride));
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  *out = result->data;
  *out_size = result->size;
  return 0;
}

void swiftshape_png_free(uint8_t *data) { free(data); }
