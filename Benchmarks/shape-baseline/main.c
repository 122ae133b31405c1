// shape-baseline FONT TEXT-FILE: the C limit for a shaping command. Shapes each line of a UTF-8
// file with HarfBuzz (buffer reused, clusters as character indices like hb-shape's) and writes one
// line of hb-shape-like JSON per input line with a hand-written writer and one output buffer.
#include <hb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char output[1 << 16];
static size_t used;

static void flush_output(void) {
  fwrite(output, 1, used, stdout);
  used = 0;
}

static void put(const char *text, size_t length) {
  if (used + length > sizeof output) flush_output();
  memcpy(output + used, text, length);
  used += length;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: shape-baseline FONT TEXT-FILE\n");
    return 64;
  }
  hb_blob_t *blob = hb_blob_create_from_file_or_fail(argv[1]);
  FILE *input = fopen(argv[2], "rb");
  if (!blob || !input) {
    fprintf(stderr, "shape-baseline: cannot read the font or the text\n");
    return 66;
  }
  hb_face_t *face = hb_face_create(blob, 0);
  hb_font_t *font = hb_font_create(face);
  hb_buffer_t *buffer = hb_buffer_create();
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  char item[512];
  char name[128];
  while ((length = getline(&line, &capacity, input)) >= 0) {
    if (length > 0 && line[length - 1] == '\n') length--;
    hb_buffer_clear_contents(buffer);
    hb_buffer_add_utf8(buffer, line, (int)length, 0, (int)length);
    unsigned count = hb_buffer_get_length(buffer);
    hb_glyph_info_t *infos = hb_buffer_get_glyph_infos(buffer, NULL);
    for (unsigned i = 0; i < count; i++) infos[i].cluster = i;
    hb_buffer_guess_segment_properties(buffer);
    hb_shape(font, buffer, NULL, 0);
    count = hb_buffer_get_length(buffer);
    infos = hb_buffer_get_glyph_infos(buffer, NULL);
    hb_glyph_position_t *positions = hb_buffer_get_glyph_positions(buffer, NULL);
    put("[", 1);
    for (unsigned i = 0; i < count; i++) {
      if (!hb_font_get_glyph_name(font, infos[i].codepoint, name, sizeof name))
        snprintf(name, sizeof name, "gid%u", infos[i].codepoint);
      int n = snprintf(item, sizeof item, "%s{\"g\":\"%s\",\"cl\":%u,\"dx\":%d,\"dy\":%d,\"ax\":%d,\"ay\":%d}",
                       i ? "," : "", name, infos[i].cluster, positions[i].x_offset, positions[i].y_offset,
                       positions[i].x_advance, positions[i].y_advance);
      put(item, (size_t)n);
    }
    put("]\n", 2);
  }
  flush_output();
  free(line);
  fclose(input);
  hb_buffer_destroy(buffer);
  hb_font_destroy(font);
  hb_face_destroy(face);
  hb_blob_destroy(blob);
  return 0;
}
