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

#endif
