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

#endif
