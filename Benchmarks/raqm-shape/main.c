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

// raqm-shape --ranges FONT SECOND-FONT FILE: each line of FILE is a text, a tab, and ranges
// separated by spaces, each START:END (UTF-8 bytes) then `:f` to set SECOND-FONT on it
// (raqm_set_freetype_face_range) and/or `:l=LANG` to set its language (raqm_set_language); prints
// each line's glyph IDs in visual order.
static int shape_ranges(char **argv) {
  FT_Library library;
  FT_Face faces[2];
  if (FT_Init_FreeType(&library)) return 70;
  for (int f = 0; f < 2; ++f) {
    if (FT_New_Face(library, argv[2 + f], 0, &faces[f])) {
      fprintf(stderr, "raqm-shape: %s: cannot load the font\n", argv[2 + f]);
      return 65;
    }
    FT_Set_Char_Size(faces[f], (FT_F26Dot6)faces[f]->units_per_EM * 64, 0, 72, 72);
  }
  FILE *file = fopen(argv[4], "r");
  if (!file) {
    fprintf(stderr, "raqm-shape: %s: cannot open\n", argv[4]);
    return 66;
  }
  char *line = NULL;
  size_t size = 0;
  ssize_t length;
  while ((length = getline(&line, &size, file)) >= 0) {
    if (length > 0 && line[length - 1] == '\n') line[--length] = 0;
    char *tab = strchr(line, '\t');
    if (tab) *tab = 0;
    raqm_t *rq = raqm_create();
    raqm_set_text_utf8(rq, line, strlen(line));
    raqm_set_freetype_face(rq, faces[0]);
    raqm_set_par_direction(rq, RAQM_DIRECTION_DEFAULT);
    for (char *spec = tab ? strtok(tab + 1, " ") : NULL; spec; spec = strtok(NULL, " ")) {
      size_t start = 0, end = 0;
      int used = 0;
      if (sscanf(spec, "%zu:%zu%n", &start, &end, &used) < 2 || end < start) {
        fprintf(stderr, "raqm-shape: '%s' is not a range\n", spec);
        return 65;
      }
      for (char *setting = strchr(spec + used, ':'); setting; setting = strchr(setting + 1, ':')) {
        if (setting[1] == 'f') raqm_set_freetype_face_range(rq, faces[1], start, end - start);
        if (setting[1] == 'l' && setting[2] == '=') {
          char language[32] = {0};
          sscanf(setting + 3, "%31[^:]", language);
          raqm_set_language(rq, language, start, end - start);
        }
      }
    }
    if (!raqm_layout(rq)) {
      fprintf(stderr, "raqm-shape: layout failed\n");
      return 70;
    }
    size_t glyphs = 0;
    raqm_glyph_t *glyph = raqm_get_glyphs(rq, &glyphs);
    for (size_t g = 0; g < glyphs; ++g) printf(g ? " %u" : "%u", glyph[g].index);
    printf("\n");
    raqm_destroy(rq);
  }
  fclose(file);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && strcmp(argv[1], "--ranges") == 0) return shape_ranges(argv);
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
