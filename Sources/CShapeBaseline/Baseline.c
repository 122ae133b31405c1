#include "CShapeBaseline.h"

#include <hb.h>
#include <hb-ot.h>
#include <stdlib.h>

struct swiftshape_baseline {
  hb_font_t *font;
  hb_buffer_t *buffer;
};

swiftshape_baseline *swiftshape_baseline_open(const char *font_path) {
  hb_blob_t *blob = hb_blob_create_from_file_or_fail(font_path);
  if (!blob) return NULL;
  hb_face_t *face = hb_face_create(blob, 0);
  hb_blob_destroy(blob);
  swiftshape_baseline *baseline = malloc(sizeof *baseline);
  baseline->font = hb_font_create(face);
  hb_face_destroy(face);
  hb_font_make_immutable(baseline->font);
  baseline->buffer = hb_buffer_create();
  return baseline;
}

long long swiftshape_baseline_shape(swiftshape_baseline *baseline, const char *const *lines, const int *lengths,
                                    int count, int rounds) {
  long long glyphs = 0;
  for (int round = 0; round < rounds; round++) {
    for (int i = 0; i < count; i++) {
      hb_buffer_clear_contents(baseline->buffer);
      hb_buffer_add_utf8(baseline->buffer, lines[i], lengths[i], 0, lengths[i]);
      hb_buffer_guess_segment_properties(baseline->buffer);
      hb_shape(baseline->font, baseline->buffer, NULL, 0);
      glyphs += hb_buffer_get_length(baseline->buffer);
    }
  }
  return glyphs;
}

void swiftshape_baseline_close(swiftshape_baseline *baseline) {
  hb_buffer_destroy(baseline->buffer);
  hb_font_destroy(baseline->font);
  free(baseline);
}
