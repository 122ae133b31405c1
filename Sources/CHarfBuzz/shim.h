// HarfBuzz's public headers, as one module for Swift.
//
// hb.h: blob, face, font, buffer, shape. hb-ot.h: the OpenType font functions and table queries.
// hb-ft.h: FreeType font functions (`--font-funcs ft`); pkg-config's `harfbuzz` cflags carry the
// freetype2 include path it needs.
//
// SwiftShape builds against any HarfBuzz from 6.0.0 on. Calls that newer versions added (or that
// they deprecated in favour of new ones) are chosen here, at build time, with HB_VERSION_ATLEAST:
// Swift cannot test the version macros, and a function a header does not declare cannot be named
// even in code that never runs. Each wrapper below says which version brings what it calls, and
// what it does on an older one.
#ifndef SWIFTSHAPE_CHARFBUZZ_SHIM_H
#define SWIFTSHAPE_CHARFBUZZ_SHIM_H

#include <stdbool.h>
#include <stdlib.h>
#include <hb.h>
#include <hb-ot.h>
#include <hb-ft.h>

// HB_FEATURE_GLOBAL_END is a cast macro, `((unsigned int) -1)`, which Swift does not import.
static inline unsigned int swiftshape_hb_feature_global_end(void) { return HB_FEATURE_GLOBAL_END; }

// HB_OT_NAME_ID_INVALID is a cast macro as well, `((hb_ot_name_id_t) 0xFFFF)`.
static inline hb_ot_name_id_t swiftshape_hb_ot_name_id_invalid(void) { return HB_OT_NAME_ID_INVALID; }

// The HarfBuzz version the package was compiled against (the headers'), as numbers; the one it runs
// with is hb_version().
static inline unsigned int swiftshape_hb_built_major(void) { return HB_VERSION_MAJOR; }
static inline unsigned int swiftshape_hb_built_minor(void) { return HB_VERSION_MINOR; }
static inline unsigned int swiftshape_hb_built_micro(void) { return HB_VERSION_MICRO; }

// A glyph's outline through draw callbacks: hb_font_draw_glyph from 7.0.0, which deprecates
// hb_font_get_glyph_shape (4.0.0), the same call under its older name.
static inline void swiftshape_hb_font_draw_glyph(hb_font_t *font, hb_codepoint_t glyph,
                                                 hb_draw_funcs_t *funcs, void *data) {
#if HB_VERSION_ATLEAST(7, 0, 0)
  hb_font_draw_glyph(font, glyph, funcs, data);
#else
  hb_font_get_glyph_shape(font, glyph, funcs, data);
#endif
}

// Synthetic bold (7.0.0): widens outlines by x and y (in em units); in place, advances do not
// change (what hb-shape 7 calls `--font-grade`). False, and nothing done, before 7.0.0.
static inline bool swiftshape_hb_font_set_synthetic_bold(hb_font_t *font, float x, float y, bool in_place) {
#if HB_VERSION_ATLEAST(7, 0, 0)
  hb_font_set_synthetic_bold(font, x, y, in_place);
  return true;
#else
  (void)font; (void)x; (void)y; (void)in_place;
  return false;
#endif
}

// Cluster level 3, HB_BUFFER_CLUSTER_LEVEL_GRAPHEMES (11.0.0): graphemes, without monotone order.
static inline bool swiftshape_hb_has_cluster_level_graphemes(void) {
#if HB_VERSION_ATLEAST(11, 0, 0)
  return true;
#else
  return false;
#endif
}

// The glyph a variation selector the font does not map becomes (10.0.0); false before.
static inline bool swiftshape_hb_buffer_set_not_found_variation_selector_glyph(hb_buffer_t *buffer,
                                                                               hb_codepoint_t glyph) {
#if HB_VERSION_ATLEAST(10, 0, 0)
  hb_buffer_set_not_found_variation_selector_glyph(buffer, glyph);
  return true;
#else
  (void)buffer; (void)glyph;
  return false;
#endif
}

// Font functions by name (11.0.0: hb_font_set_funcs_using, hb_font_list_funcs); before it, the
// two every build has, `ot` and `ft`, set by their own calls. NULL-terminated, static.
static inline const char **swiftshape_hb_font_list_funcs(void) {
#if HB_VERSION_ATLEAST(11, 0, 0)
  return hb_font_list_funcs();
#else
  static const char *list[] = {"ot", "ft", NULL};
  return list;
#endif
}

static inline bool swiftshape_hb_font_set_funcs_using(hb_font_t *font, const char *name) {
#if HB_VERSION_ATLEAST(11, 0, 0)
  return hb_font_set_funcs_using(font, name);
#else
  if (name[0] == 'o' && name[1] == 't' && name[2] == 0) { hb_ot_font_set_funcs(font); return true; }
  if (name[0] == 'f' && name[1] == 't' && name[2] == 0) { hb_ft_font_set_funcs(font); return true; }
  return false;
#endif
}

// Face loaders by name (11.0.0: hb_face_list_loaders); before it, HarfBuzz's own (`ot`) only.
static inline const char **swiftshape_hb_face_list_loaders(void) {
#if HB_VERSION_ATLEAST(11, 0, 0)
  return hb_face_list_loaders();
#else
  static const char *list[] = {"ot", NULL};
  return list;
#endif
}

// HarfBuzz's paint API (7.0.0): a color glyph's paint graph, recorded as a flat list of numbers
// that Swift reads back (Swift cannot name the paint API's types where the headers lack them).
// Each event is an opcode and its operands:
//   1 push transform xx yx xy yy dx dy   2 pop transform
//   3 push clip glyph G                  4 push clip rectangle x0 y0 x1 y1   5 pop clip
//   6 color F R G B A (F: the foreground color; channels 0–255)
//   7 linear x0 y0 x1 y1 x2 y2 LINE      8 radial x0 y0 r0 x1 y1 r1 LINE
//   9 sweep cx cy start end LINE (angles in radians)
//   10 push group                        11 pop group MODE
//   12 image (not recorded: the recording fails)
// where LINE is EXTEND N then N stops of OFFSET F R G B A. A recording past `limit` numbers fails.
typedef struct {
  double *values;
  size_t count;
  size_t capacity;
  size_t limit;
  int failed;
} swiftshape_paint_record;

static inline int swiftshape_hb_has_paint(void) {
#if HB_VERSION_ATLEAST(7, 0, 0)
  return 1;
#else
  return 0;
#endif
}

#if HB_VERSION_ATLEAST(7, 0, 0)
static inline void swiftshape_paint_put(swiftshape_paint_record *record, double value) {
  if (record->failed) return;
  if (record->count == record->capacity) {
    size_t capacity = record->capacity ? record->capacity * 2 : 256;
    if (capacity > record->limit) { record->failed = 1; return; }
    double *values = (double *)realloc(record->values, capacity * sizeof(double));
    if (!values) { record->failed = 1; return; }
    record->values = values;
    record->capacity = capacity;
  }
  record->values[record->count++] = value;
}

static inline void swiftshape_paint_put_color(swiftshape_paint_record *record, hb_bool_t foreground,
                                              hb_color_t color) {
  swiftshape_paint_put(record, foreground ? 1 : 0);
  swiftshape_paint_put(record, hb_color_get_red(color));
  swiftshape_paint_put(record, hb_color_get_green(color));
  swiftshape_paint_put(record, hb_color_get_blue(color));
  swiftshape_paint_put(record, hb_color_get_alpha(color));
}

static inline void swiftshape_paint_put_line(swiftshape_paint_record *record, hb_color_line_t *line) {
  swiftshape_paint_put(record, (double)hb_color_line_get_extend(line));
  unsigned int total = hb_color_line_get_color_stops(line, 0, NULL, NULL);
  if (total > 1024) total = 1024;
  swiftshape_paint_put(record, total);
  for (unsigned int start = 0; start < total; start++) {
    hb_color_stop_t stop;
    unsigned int count = 1;
    hb_color_line_get_color_stops(line, start, &count, &stop);
    swiftshape_paint_put(record, count ? stop.offset : 0);
    swiftshape_paint_put_color(record, count ? stop.is_foreground : 1, count ? stop.color : 0);
  }
}

#define SWIFTSHAPE_RECORD ((swiftshape_paint_record *)data)
static inline void swiftshape_paint_push_transform(hb_paint_funcs_t *f, void *data, float xx, float yx, float xy,
                                                   float yy, float dx, float dy, void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 1);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, xx); swiftshape_paint_put(SWIFTSHAPE_RECORD, yx);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, xy); swiftshape_paint_put(SWIFTSHAPE_RECORD, yy);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, dx); swiftshape_paint_put(SWIFTSHAPE_RECORD, dy);
}
static inline void swiftshape_paint_pop_transform(hb_paint_funcs_t *f, void *data, void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 2);
}
static inline void swiftshape_paint_push_clip_glyph(hb_paint_funcs_t *f, void *data, hb_codepoint_t glyph,
                                                    hb_font_t *font, void *u) {
  (void)f; (void)u; (void)font;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 3);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, glyph);
}
static inline void swiftshape_paint_push_clip_rectangle(hb_paint_funcs_t *f, void *data, float x0, float y0,
                                                        float x1, float y1, void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 4);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, x0); swiftshape_paint_put(SWIFTSHAPE_RECORD, y0);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, x1); swiftshape_paint_put(SWIFTSHAPE_RECORD, y1);
}
static inline void swiftshape_paint_pop_clip(hb_paint_funcs_t *f, void *data, void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 5);
}
static inline void swiftshape_paint_color(hb_paint_funcs_t *f, void *data, hb_bool_t foreground, hb_color_t color,
                                          void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 6);
  swiftshape_paint_put_color(SWIFTSHAPE_RECORD, foreground, color);
}
static inline hb_bool_t swiftshape_paint_image(hb_paint_funcs_t *f, void *data, hb_blob_t *image, unsigned int w,
                                               unsigned int h, hb_tag_t format, float slant,
                                               hb_glyph_extents_t *extents, void *u) {
  (void)f; (void)u; (void)image; (void)w; (void)h; (void)format; (void)slant; (void)extents;
  SWIFTSHAPE_RECORD->failed = 1;
  return 0;
}
static inline void swiftshape_paint_linear(hb_paint_funcs_t *f, void *data, hb_color_line_t *line, float x0,
                                           float y0, float x1, float y1, float x2, float y2, void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 7);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, x0); swiftshape_paint_put(SWIFTSHAPE_RECORD, y0);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, x1); swiftshape_paint_put(SWIFTSHAPE_RECORD, y1);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, x2); swiftshape_paint_put(SWIFTSHAPE_RECORD, y2);
  swiftshape_paint_put_line(SWIFTSHAPE_RECORD, line);
}
static inline void swiftshape_paint_radial(hb_paint_funcs_t *f, void *data, hb_color_line_t *line, float x0,
                                           float y0, float r0, float x1, float y1, float r1, void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 8);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, x0); swiftshape_paint_put(SWIFTSHAPE_RECORD, y0);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, r0); swiftshape_paint_put(SWIFTSHAPE_RECORD, x1);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, y1); swiftshape_paint_put(SWIFTSHAPE_RECORD, r1);
  swiftshape_paint_put_line(SWIFTSHAPE_RECORD, line);
}
static inline void swiftshape_paint_sweep(hb_paint_funcs_t *f, void *data, hb_color_line_t *line, float cx,
                                          float cy, float start, float end, void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 9);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, cx); swiftshape_paint_put(SWIFTSHAPE_RECORD, cy);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, start); swiftshape_paint_put(SWIFTSHAPE_RECORD, end);
  swiftshape_paint_put_line(SWIFTSHAPE_RECORD, line);
}
static inline void swiftshape_paint_push_group(hb_paint_funcs_t *f, void *data, void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 10);
}
static inline void swiftshape_paint_pop_group(hb_paint_funcs_t *f, void *data, hb_paint_composite_mode_t mode,
                                              void *u) {
  (void)f; (void)u;
  swiftshape_paint_put(SWIFTSHAPE_RECORD, 11);
  swiftshape_paint_put(SWIFTSHAPE_RECORD, (double)mode);
}
#undef SWIFTSHAPE_RECORD
#endif

// Records the paint graph of `glyph` with `palette` (the foreground color is recorded as such, not
// as a value). False where the engine has no paint API, the glyph has no paint graph (COLR
// version 1), or the recording failed; the record's values are the caller's to free either way.
static inline bool swiftshape_hb_font_paint_glyph(hb_font_t *font, hb_codepoint_t glyph, unsigned int palette,
                                                  swiftshape_paint_record *record) {
#if HB_VERSION_ATLEAST(7, 0, 0)
  if (!hb_ot_color_glyph_has_paint(hb_font_get_face(font), glyph)) return false;
  static hb_paint_funcs_t *shared = NULL;
  hb_paint_funcs_t *funcs = __atomic_load_n(&shared, __ATOMIC_ACQUIRE);
  if (!funcs) {
    // Made once for the process; threads that race make identical immutable objects, and all but
    // the first one stored are destroyed.
    hb_paint_funcs_t *made = hb_paint_funcs_create();
    hb_paint_funcs_set_push_transform_func(made, swiftshape_paint_push_transform, NULL, NULL);
    hb_paint_funcs_set_pop_transform_func(made, swiftshape_paint_pop_transform, NULL, NULL);
    hb_paint_funcs_set_push_clip_glyph_func(made, swiftshape_paint_push_clip_glyph, NULL, NULL);
    hb_paint_funcs_set_push_clip_rectangle_func(made, swiftshape_paint_push_clip_rectangle, NULL, NULL);
    hb_paint_funcs_set_pop_clip_func(made, swiftshape_paint_pop_clip, NULL, NULL);
    hb_paint_funcs_set_color_func(made, swiftshape_paint_color, NULL, NULL);
    hb_paint_funcs_set_image_func(made, swiftshape_paint_image, NULL, NULL);
    hb_paint_funcs_set_linear_gradient_func(made, swiftshape_paint_linear, NULL, NULL);
    hb_paint_funcs_set_radial_gradient_func(made, swiftshape_paint_radial, NULL, NULL);
    hb_paint_funcs_set_sweep_gradient_func(made, swiftshape_paint_sweep, NULL, NULL);
    hb_paint_funcs_set_push_group_func(made, swiftshape_paint_push_group, NULL, NULL);
    hb_paint_funcs_set_pop_group_func(made, swiftshape_paint_pop_group, NULL, NULL);
    hb_paint_funcs_make_immutable(made);
    hb_paint_funcs_t *expected = NULL;
    if (__atomic_compare_exchange_n(&shared, &expected, made, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      funcs = made;
    } else {
      hb_paint_funcs_destroy(made);
      funcs = expected;
    }
  }
  hb_font_paint_glyph(font, glyph, funcs, record, palette, HB_COLOR(0, 0, 0, 255));
  return !record->failed;
#else
  (void)font; (void)glyph; (void)palette; (void)record;
  return false;
#endif
}

#endif
