// Each code point's properties as script itemization (UAX #24), font fallback and bidi read
// them, from ICU, kept by blocks; and the paragraph that needs neither bidi nor itemization.
#include "unicode_internal.h"

#include <stdlib.h>
#include <string.h>

/// `swiftshape_simple_paragraph`'s answer when ICU cannot be loaded or memory runs out.
#define NO_ICU_SIMPLE (-1)

/// Whether a code point's Script_Extensions say more than its Script.
static int has_own_extensions(UChar32 c, int32_t script) {
  UErrorCode error = U_ZERO_ERROR;
  UScriptCode codes[2];
  int32_t found = ICU(uscript_getScriptExtensions)(c, codes, 2, &error);
  return error == U_BUFFER_OVERFLOW_ERROR || (U_SUCCESS(error) && (found != 1 || codes[0] != script));
}

/// A code point's SWIFTSHAPE_FALLBACK_* flags.
static uint8_t read_fallback_flags(UChar32 c) {
  uint8_t flags = 0;
  if (ICU(u_hasBinaryProperty)(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) flags |= SWIFTSHAPE_FALLBACK_IGNORABLE;
  if (ICU(u_hasBinaryProperty)(c, UCHAR_EMOJI)) flags |= SWIFTSHAPE_FALLBACK_EMOJI;
  if (ICU(u_hasBinaryProperty)(c, UCHAR_EMOJI_PRESENTATION)) flags |= SWIFTSHAPE_FALLBACK_EMOJI_PRESENTATION;
  // U+FE0F VARIATION SELECTOR-16 asks for the emoji presentation of what it follows, U+20E3
  // COMBINING ENCLOSING KEYCAP makes a keycap of it, and tags (U+E0020-U+E007F) make a flag of a
  // black flag: each makes its cluster an emoji.
  if (c == 0xFE0F || c == 0x20E3 || (c >= 0xE0020 && c <= 0xE007F)) flags |= SWIFTSHAPE_FALLBACK_SELECTS_EMOJI;
  if (c == 0xFE0E) flags |= SWIFTSHAPE_FALLBACK_SELECTS_TEXT;
  switch (ICU(u_charType)(c)) {
  case U_SPACE_SEPARATOR:
  case U_LINE_SEPARATOR:
  case U_PARAGRAPH_SEPARATOR:
  case U_DASH_PUNCTUATION:
  case U_START_PUNCTUATION:
  case U_END_PUNCTUATION:
  case U_CONNECTOR_PUNCTUATION:
  case U_OTHER_PUNCTUATION:
  case U_INITIAL_PUNCTUATION:
  case U_FINAL_PUNCTUATION:
    flags |= SWIFTSHAPE_FALLBACK_SPACE_OR_PUNCTUATION;
    break;
  default:
    break;
  }
  return flags;
}

static struct properties read_properties(UChar32 c) {
  UErrorCode error = U_ZERO_ERROR;
  int32_t script = ICU(uscript_getScript)(c, &error);
  if (U_FAILURE(error)) script = USCRIPT_UNKNOWN;
  int32_t type = ICU(u_getIntPropertyValue)(c, UCHAR_BIDI_PAIRED_BRACKET_TYPE);
  int32_t packed = script | (type == U_BPT_OPEN ? SWIFTSHAPE_OPENING_BRACKET : 0) |
                   (type == U_BPT_CLOSE ? SWIFTSHAPE_CLOSING_BRACKET : 0) |
                   (has_own_extensions(c, script) ? SWIFTSHAPE_MORE_SCRIPTS : 0);
  int8_t category = ICU(u_charType)(c);
  if (category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK) packed |= SWIFTSHAPE_COMBINING_MARK;
  const char *code = ICU(uscript_getShortName)((UScriptCode)script);
  uint32_t tag = 0;
  for (int i = 0; code != NULL && i < 4 && code[i] != 0; ++i) tag = tag << 8 | (uint8_t)code[i];
  return (struct properties){packed, (uint32_t)ICU(u_getBidiPairedBracket)(c), read_fallback_flags(c),
                             (uint8_t)swiftshape_raises_levels(c), (uint8_t)ICU(u_charDirection)(c), tag};
}

_Atomic(struct properties *) swiftshape_property_blocks[0x110000 >> BLOCK_BITS];

struct properties *swiftshape_read_property_block(UChar32 c) {
  _Atomic(struct properties *) *slot = &swiftshape_property_blocks[c >> BLOCK_BITS];
  struct properties *made = malloc(sizeof(struct properties) * BLOCK_SIZE);
  if (made == NULL) return NULL;
  UChar32 first = c & ~(BLOCK_SIZE - 1);
  for (int i = 0; i < BLOCK_SIZE; ++i) made[i] = read_properties(first + i);
  struct properties *block = NULL;
  if (atomic_compare_exchange_strong_explicit(slot, &block, made, memory_order_acq_rel, memory_order_acquire)) {
    return made;
  }
  free(made);
  return block;
}

int32_t swiftshape_script_properties(const uint32_t *text, int32_t count, int32_t *properties) {
  if (!swiftshape_have_icu()) return NO_ICU;
  // Speed: the block of the character before, kept for the next (text is mostly of one or two
  // blocks): through `properties_of` for each, about 25 instructions a character; 17 this way
  // (callgrind, the mixed text's paragraphs).
  const struct properties *block = NULL;
  uint32_t block_index = UINT32_MAX;
  for (int32_t i = 0; i < count; ++i) {
    uint32_t c = text[i];
    if ((c >> BLOCK_BITS) != block_index) {
      const struct properties *found = properties_of((UChar32)c);
      if (found == NULL) return U_MEMORY_ALLOCATION_ERROR;
      block = found - (c > 0x10FFFF ? (0xFFFD & (BLOCK_SIZE - 1)) : (c & (BLOCK_SIZE - 1)));
      block_index = c > 0x10FFFF ? UINT32_MAX : c >> BLOCK_BITS;
      properties[i] = found->packed;
      continue;
    }
    properties[i] = block[c & (BLOCK_SIZE - 1)].packed;
  }
  return 0;
}

uint32_t swiftshape_paired_bracket(uint32_t code_point) {
  const struct properties *found = swiftshape_have_icu() ? properties_of((UChar32)code_point) : NULL;
  return found ? found->pair : code_point;
}

int32_t swiftshape_script_extensions(uint32_t code_point, int32_t *scripts, int32_t capacity) {
  if (!swiftshape_have_icu()) return 0;
  UErrorCode error = U_ZERO_ERROR;
  int32_t found = ICU(uscript_getScriptExtensions)((UChar32)code_point, (UScriptCode *)scripts, capacity, &error);
  if (error == U_BUFFER_OVERFLOW_ERROR) return capacity;
  return U_SUCCESS(error) ? found : 0;
}

const char *swiftshape_script_code(int32_t script) {
  return swiftshape_have_icu() ? ICU(uscript_getShortName)((UScriptCode)script) : NULL;
}

int32_t swiftshape_fallback_properties(const uint32_t *text, int32_t count, uint8_t *flags) {
  if (!swiftshape_have_icu()) return NO_ICU;
  for (int32_t i = 0; i < count; ++i) {
    const struct properties *found = properties_of((UChar32)text[i]);
    if (found == NULL) return U_MEMORY_ALLOCATION_ERROR;
    flags[i] = found->fallback;
  }
  return 0;
}

int32_t swiftshape_simple_paragraph(const uint8_t *text, int32_t length, uint8_t paragraph_level,
                                    uint32_t *script_tag, int32_t *scalar_count) {
  // Common's code, for text with no character of a specific script.
  *script_tag = 0x5A797979;
  *scalar_count = 0;
  if (paragraph_level == 1) return 0;
  int loaded = 0;
  int32_t found = -1;
  int32_t count = 0;
  for (int32_t i = 0; i < length; ++count) {
    // Speed: once the text is known Latin, ASCII is read eight bytes at a time, each byte a
    // scalar of a script it has already (the English paragraphs, 1,630 instructions a paragraph
    // a byte at a time, callgrind).
    if (found == USCRIPT_LATIN) {
      while (i + 8 <= length) {
        uint64_t word;
        memcpy(&word, text + i, 8);
        if (word & 0x8080808080808080ULL) break;
        i += 8;
        count += 8;
      }
      if (i >= length) break;
    }
    // The text is valid UTF-8 (a Swift string's).
    UChar32 c = text[i];
    if (c < 0x80) {
      i += 1;
      // Speed: ASCII letters are Latin, the rest Common, none with extensions of their own or a
      // level above 0 (brackets pair within one script).
      if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
        if (found >= 0 && found != USCRIPT_LATIN) return 0;
        if (found < 0) *script_tag = 0x4C61746E;
        found = USCRIPT_LATIN;
      }
      continue;
    } else if (c < 0xE0) {
      c = ((c & 0x1F) << 6) | (text[i + 1] & 0x3F);
      i += 2;
    } else if (c < 0xF0) {
      c = ((c & 0x0F) << 12) | ((text[i + 1] & 0x3F) << 6) | (text[i + 2] & 0x3F);
      i += 3;
    } else {
      c = ((c & 0x07) << 18) | ((text[i + 1] & 0x3F) << 12) | ((text[i + 2] & 0x3F) << 6) | (text[i + 3] & 0x3F);
      i += 4;
    }
    if (!loaded && !(loaded = swiftshape_have_icu())) return NO_ICU_SIMPLE;
    const struct properties *properties = properties_of(c);
    if (properties == NULL) return NO_ICU_SIMPLE;
    if (properties->raises_levels) return 0;
    int32_t packed = properties->packed;
    // A combining mark after a character of a specific script stays in its run (as the full
    // itemizer keeps it).
    if ((packed & SWIFTSHAPE_COMBINING_MARK) && found >= 0) continue;
    // A character whose extensions say more than its script may start a run of its own: the
    // full itemizer decides.
    if (packed & SWIFTSHAPE_MORE_SCRIPTS) return 0;
    int32_t code = packed & 0xFFFF;
    if (code == USCRIPT_COMMON || code == USCRIPT_INHERITED) continue;
    if (found >= 0 && found != code) return 0;
    found = code;
    *script_tag = properties->script_tag;
  }
  *scalar_count = count;
  return 1;
}

