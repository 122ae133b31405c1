// Shapes each line of a text file as a paragraph with libraqm (direction from the text, one font),
// as the paragraph comparison and benchmark need it:
//   raqm-shape FONT TEXT-FILE            prints each line's glyph IDs in visual order
//   raqm-shape FONT TEXT-FILE PASSES     shapes every line PASSES times and prints the CPU time
//                                        of the shaping alone, in seconds
#include <raqm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: raqm-shape FONT TEXT-FILE [PASSES]\n");
    return 64;
  }
  FT_Library library;
  FT_Face face;
  if (FT_Init_FreeType(&library) || FT_New_Face(library, argv[1], 0, &face)) {
    fprintf(stderr, "raqm-shape: %s: cannot load the font\n", argv[1]);
    return 65;
  }
  FT_Set_Char_Size(face, (FT_F26Dot6)face->units_per_EM * 64, 0, 72, 72);
  FILE *file = fopen(argv[2], "r");
  if (!file) {
    fprintf(stderr, "raqm-shape: %s: cannot open\n", argv[2]);
    return 66;
  }
  size_t capacity = 0, count = 0;
  char **lines = NULL;
  char *line = NULL;
  size_t size = 0;
  ssize_t length;
  while ((length = getline(&line, &size, file)) >= 0) {
    if (length > 0 && line[length - 1] == '\n') line[--length] = 0;
    if (count == capacity) lines = realloc(lines, (capacity = capacity ? 2 * capacity : 1024) * sizeof(char *));
    lines[count++] = strdup(line);
  }
  fclose(file);
  int passes = argc > 3 ? atoi(argv[3]) : 0;
  double start = cpu_seconds();
  for (int pass = 0; pass < (passes > 0 ? passes : 1); ++pass) {
    for (size_t i = 0; i < count; ++i) {
      raqm_t *rq = raqm_create();
      raqm_set_text_utf8(rq, lines[i], strlen(lines[i]));
      raqm_set_freetype_face(rq, face);
      raqm_set_par_direction(rq, RAQM_DIRECTION_DEFAULT);
      if (!raqm_layout(rq)) {
        fprintf(stderr, "raqm-shape: line %zu: layout failed\n", i + 1);
        return 70;
      }
      size_t glyphs = 0;
      raqm_glyph_t *glyph = raqm_get_glyphs(rq, &glyphs);
      if (passes == 0) {
        for (size_t g = 0; g < glyphs; ++g) printf(g ? " %u" : "%u", glyph[g].index);
        printf("\n");
      }
      raqm_destroy(rq);
    }
  }
  if (passes > 0) printf("%.6f\n", cpu_seconds() - start);
  return 0;
}
