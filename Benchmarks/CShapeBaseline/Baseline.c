#include "CShapeBaseline.h"

#include <hb.h>
#include <hb-ot.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

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

struct share {
  hb_font_t *font;
  const char *const *lines;
  const int *lengths;
  int count;
  int rounds;
  int first;
  int step;
};

static void *shape_share(void *argument) {
  struct share *share = argument;
  hb_buffer_t *buffer = hb_buffer_create();
  for (int round = 0; round < share->rounds; round++) {
    for (int i = share->first; i < share->count; i += share->step) {
      hb_buffer_clear_contents(buffer);
      hb_buffer_add_utf8(buffer, share->lines[i], share->lengths[i], 0, share->lengths[i]);
      hb_buffer_guess_segment_properties(buffer);
      hb_shape(share->font, buffer, NULL, 0);
    }
  }
  hb_buffer_destroy(buffer);
  return NULL;
}

double swiftshape_baseline_shape_threads(swiftshape_baseline *baseline, const char *const *lines, const int *lengths,
                                         int count, int rounds, int threads) {
  if (threads < 1) threads = 1;
  if (threads > 64) threads = 64;
  pthread_t ids[64];
  struct share shares[64];
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int t = 0; t < threads; t++) {
    shares[t] = (struct share){baseline->font, lines, lengths, count, rounds, t, threads};
    if (t > 0) pthread_create(&ids[t], NULL, shape_share, &shares[t]);
  }
  shape_share(&shares[0]);
  for (int t = 1; t < threads; t++) pthread_join(ids[t], NULL);
  clock_gettime(CLOCK_MONOTONIC, &end);
  return (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
}
