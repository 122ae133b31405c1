// FreeType's public headers, as one module for Swift.
#ifndef SWIFTSHAPE_CFREETYPE_SHIM_H
#define SWIFTSHAPE_CFREETYPE_SHIM_H

// FreeType names its headers through macros (`#include FT_FREETYPE_H`), which only a C header can
// expand; this is the reason the module has a shim at all.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_MULTIPLE_MASTERS_H
#include FT_COLOR_H

// FT_GLYPH_FORMAT_OUTLINE and FT_GLYPH_FORMAT_BITMAP are enumerators that a macro (FT_IMAGE_TAG)
// makes in ftimage.h, which HarfBuzz's module includes too (through hb-ft.h): which of the two
// modules Swift then finds them in depends on the order a target's files are compiled in, and a
// file that imports only this one can miss them. These give them through this module alone.
static inline FT_Glyph_Format swiftshape_ft_glyph_format_outline(void) { return FT_GLYPH_FORMAT_OUTLINE; }
static inline FT_Glyph_Format swiftshape_ft_glyph_format_bitmap(void) { return FT_GLYPH_FORMAT_BITMAP; }

#endif
