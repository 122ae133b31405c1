// HarfBuzz's public headers, as one module for Swift.
//
// hb.h: blob, face, font, buffer, shape. hb-ot.h: the OpenType font functions and table queries.
// hb-ft.h: FreeType font functions (`--font-funcs ft`); pkg-config's `harfbuzz` cflags carry the
// freetype2 include path it needs.
#ifndef SWIFTSHAPE_CHARFBUZZ_SHIM_H
#define SWIFTSHAPE_CHARFBUZZ_SHIM_H

#include <hb.h>
#include <hb-ot.h>
#include <hb-ft.h>

// HB_FEATURE_GLOBAL_END is a cast macro, `((unsigned int) -1)`, which Swift does not import.
static inline unsigned int swiftshape_hb_feature_global_end(void) { return HB_FEATURE_GLOBAL_END; }

// HB_OT_NAME_ID_INVALID is a cast macro as well, `((hb_ot_name_id_t) 0xFFFF)`.
static inline hb_ot_name_id_t swiftshape_hb_ot_name_id_invalid(void) { return HB_OT_NAME_ID_INVALID; }

#endif
