// naive-cache FONT TEXT-FILE [COPIES [ROUNDS]]: the ceiling of a cache of shaped segments, in C.
//
// Each line is cut after each run of spaces; each segment is looked up in a hash table by its
// bytes; the segments not found are shaped together, a call for each stretch of them next to each
// other, split by cluster and kept; the line's glyphs (IDs, clusters, positions) are the segments'
// copied one after the other. Nothing checks that the joints are exact (the shaping cache's
// rules, HarfBuzz's flags): this is the least a cache of segments can cost, not a correct one.
//
// Printed: CPU time of a pass of the loop around hb_shape over the whole lines (the glyphs read
// out, as a cache must give them), of a pass through the naive cache starting empty, and of
// COPIES passes through it (the cache warm after the first), each the median of ROUNDS, and the
// ratios. Left to right text only (the English benchmark text).
#include <hb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  uint32_t id, cluster;
  int32_t x_advance, y_advance, x_offset, y_offset;
} glyph_t;

typedef struct {
  uint64_t hash;
  char *text;
  int length;
  glyph_t *glyphs;
  int count;
} entry_t;

static entry_t *table;
static size_t table_size, table_used;

static double cpu_time(void) {
  struct timespec time;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time);
  return time.tv_sec + time.tv_nsec * 1e-9;
}

static uint64_t hash_of(const char *text, int length) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (int i = 0; i < length; i++) hash = (hash ^ (unsigned char)text[i]) * 0x100000001b3ull;
  return hash | 1;
}

static void clear_table(void) {
  for (size_t i = 0; i < table_size; i++) {
    if (table[i].hash) {
      free(table[i].text);
      free(table[i].glyphs);
    }
  }
  free(table);
  table_size = 1 << 10;
  table_used = 0;
  table = calloc(table_size, sizeof *table);
}

static entry_t *find(uint64_t hash, const char *text, int length) {
  size_t slot = (hash >> 7) & (table_size - 1);
  while (table[slot].hash) {
    if (table[slot].hash == hash && table[slot].length == length && !memcmp(table[slot].text, text, length)) {
      return &table[slot];
    }
    slot = (slot + 1) & (table_size - 1);
  }
  return NULL;
}

static void insert(entry_t entry);

static void grow(void) {
  entry_t *old = table;
  size_t old_size = table_size;
  table_size *= 2;
  table_used = 0;
  table = calloc(table_size, sizeof *table);
  for (size_t i = 0; i < old_size; i++) {
    if (old[i].hash) insert(old[i]);
  }
  free(old);
}

static void insert(entry_t entry) {
  if ((table_used + 1) * 2 > table_size) grow();
  size_t slot = (entry.hash >> 7) & (table_size - 1);
  while (table[slot].hash) slot = (slot + 1) & (table_size - 1);
  table[slot] = entry;
  table_used++;
}

static glyph_t line_glyphs[1 << 16];

// Reads the buffer's glyphs into `out`, clusters less `base`.
static int read_glyphs(hb_buffer_t *buffer, glyph_t *out, uint32_t base) {
  unsigned count;
  hb_glyph_info_t *infos = hb_buffer_get_glyph_infos(buffer, &count);
  hb_glyph_position_t *positions = hb_buffer_get_glyph_positions(buffer, NULL);
  for (unsigned i = 0; i < count; i++) {
    out[i] = (glyph_t){infos[i].codepoint, infos[i].cluster - base, positions[i].x_advance,
                       positions[i].y_advance, positions[i].x_offset, positions[i].y_offset};
  }
  return (int)count;
}

static long whole_pass(hb_font_t *font, hb_buffer_t *buffer, char **lines, int *lengths, int count) {
  long glyphs = 0;
  for (int i = 0; i < count; i++) {
    hb_buffer_clear_contents(buffer);
    hb_buffer_add_utf8(buffer, lines[i], lengths[i], 0, lengths[i]);
    hb_buffer_guess_segment_properties(buffer);
    hb_shape(font, buffer, NULL, 0);
    glyphs += read_glyphs(buffer, line_glyphs, 0);
  }
  return glyphs;
}

static long cached_pass(hb_font_t *font, hb_buffer_t *buffer, char **lines, int *lengths, int count) {
  long glyphs = 0;
  int starts[4096];
  entry_t *found[4096];
  // (The glyphs, not the entries: a table that grows moves its entries.)
  glyph_t *piece_glyphs[4096];
  int piece_counts[4096];
  uint64_t hashes[4096];
  for (int i = 0; i < count; i++) {
    const char *text = lines[i];
    int length = lengths[i], pieces = 0;
    // Cut after each run of spaces.
    starts[pieces++] = 0;
    for (int at = 0; at < length; at++) {
      if (text[at] == ' ' && (at + 1 == length || text[at + 1] != ' ') && at + 1 < length) {
        if (pieces < 4095) starts[pieces++] = at + 1;
      }
    }
    starts[pieces] = length;
    for (int piece = 0; piece < pieces; piece++) {
      hashes[piece] = hash_of(text + starts[piece], starts[piece + 1] - starts[piece]);
      found[piece] = find(hashes[piece], text + starts[piece], starts[piece + 1] - starts[piece]);
      if (found[piece]) {
        piece_glyphs[piece] = found[piece]->glyphs;
        piece_counts[piece] = found[piece]->count;
      }
    }
    // The pieces not found, a call for each stretch of them, split by cluster and kept.
    for (int piece = 0; piece < pieces;) {
      if (found[piece]) {
        piece++;
        continue;
      }
      int last = piece;
      while (last + 1 < pieces && !found[last + 1]) last++;
      hb_buffer_clear_contents(buffer);
      hb_buffer_add_utf8(buffer, text, length, starts[piece], starts[last + 1] - starts[piece]);
      hb_buffer_guess_segment_properties(buffer);
      hb_shape(font, buffer, NULL, 0);
      int shaped = read_glyphs(buffer, line_glyphs, 0);
      int glyph = 0;
      for (int each = piece; each <= last; each++) {
        int first = glyph;
        while (glyph < shaped && (int)line_glyphs[glyph].cluster < starts[each + 1]) glyph++;
        entry_t entry = {hashes[each], malloc(starts[each + 1] - starts[each]), starts[each + 1] - starts[each],
                         malloc((glyph - first) * sizeof(glyph_t) + 1), glyph - first};
        memcpy(entry.text, text + starts[each], entry.length);
        for (int g = first; g < glyph; g++) {
          entry.glyphs[g - first] = line_glyphs[g];
          entry.glyphs[g - first].cluster -= starts[each];
        }
        insert(entry);
        piece_glyphs[each] = entry.glyphs;
        piece_counts[each] = entry.count;
      }
      piece = last + 1;
    }
    // The line: its pieces' glyphs joined, clusters moved by where each starts.
    int at = 0;
    for (int piece = 0; piece < pieces; piece++) {
      memcpy(line_glyphs + at, piece_glyphs[piece], piece_counts[piece] * sizeof(glyph_t));
      for (int g = at; g < at + piece_counts[piece]; g++) line_glyphs[g].cluster += starts[piece];
      at += piece_counts[piece];
    }
    glyphs += at;
  }
  return glyphs;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: naive-cache FONT TEXT-FILE [COPIES [ROUNDS]]\n");
    return 64;
  }
  int copies = argc > 3 ? atoi(argv[3]) : 4, rounds = argc > 4 ? atoi(argv[4]) : 21;
  hb_blob_t *blob = hb_blob_create_from_file_or_fail(argv[1]);
  FILE *input = fopen(argv[2], "rb");
  if (!blob || !input || copies < 1 || rounds < 1) {
    fprintf(stderr, "naive-cache: cannot read %s or %s\n", argv[1], argv[2]);
    return 66;
  }
  hb_face_t *face = hb_face_create(blob, 0);
  hb_font_t *font = hb_font_create(face);
  hb_buffer_t *buffer = hb_buffer_create();
  char **lines = NULL;
  int *lengths = NULL, count = 0;
  char *line = NULL;
  size_t capacity = 0;
  ssize_t read;
  while ((read = getline(&line, &capacity, input)) >= 0) {
    if (read > 0 && line[read - 1] == '\n') read--;
    if (read > 60000) continue;
    lines = realloc(lines, (count + 1) * sizeof *lines);
    lengths = realloc(lengths, (count + 1) * sizeof *lengths);
    lines[count] = malloc(read + 1);
    memcpy(lines[count], line, read);
    lengths[count++] = (int)read;
  }
  double *whole = malloc(rounds * sizeof(double)), *once = malloc(rounds * sizeof(double)),
         *many = malloc(rounds * sizeof(double));
  long glyphs[3] = {0};
  clear_table();
  whole_pass(font, buffer, lines, lengths, count);
  cached_pass(font, buffer, lines, lengths, count);
  for (int round = 0; round < rounds; round++) {
    double start = cpu_time();
    glyphs[0] = whole_pass(font, buffer, lines, lengths, count);
    whole[round] = cpu_time() - start;
    clear_table();
    start = cpu_time();
    glyphs[1] = cached_pass(font, buffer, lines, lengths, count);
    once[round] = cpu_time() - start;
    clear_table();
    start = cpu_time();
    for (int copy = 0; copy < copies; copy++) glyphs[2] = cached_pass(font, buffer, lines, lengths, count);
    many[round] = cpu_time() - start;
  }
  qsort(whole, rounds, sizeof(double), compare);
  qsort(once, rounds, sizeof(double), compare);
  qsort(many, rounds, sizeof(double), compare);
  double w = whole[rounds / 2], o = once[rounds / 2], m = many[rounds / 2];
  printf("HarfBuzz %s: whole lines %.2f ms; naive cache, one pass %.2f ms (%.2fx), %d copies %.2f ms (%.2fx)\n",
         hb_version_string(), w * 1e3, o * 1e3, w / o, copies, m * 1e3, w * copies / m);
  if (glyphs[0] != glyphs[1] || glyphs[1] != glyphs[2]) {
    printf("(glyph counts differ: %ld whole, %ld cached: the joints the naive cache gets wrong)\n", glyphs[0],
           glyphs[1]);
  }
  return 0;
}
