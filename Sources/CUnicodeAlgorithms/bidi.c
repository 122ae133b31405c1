// Bidi (UAX #9) through ICU's ubidi, and the bidi classes line breaking reads (rule L1's
// whitespace at a line's end).
#include "unicode_internal.h"

#include <pthread.h>

/// The classes a test gives to U+E000, U+E001, …
struct class_table {
  const uint32_t *classes;
  int32_t count;
};

static UCharDirection U_CALLCONV class_of(const void *context, UChar32 code_point) {
  const struct class_table *table = context;
  int32_t index = code_point - 0xE000;
  if (index < 0 || index >= table->count) return U_BIDI_CLASS_DEFAULT;
  return (UCharDirection)table->classes[index];
}

/// A character can give text a level other than 0 in a left-to-right paragraph, or make a
/// paragraph that takes its direction from its text right to left, when its bidi class is R, AL or
/// AN, or an explicit embedding, override or isolate, or their ends. Without one, rules W1-W7
/// resolve European numbers to L, and N1-N2 neutrals to L, all at level 0.
int swiftshape_raises_levels(UChar32 c) {
  switch (ICU(u_charDirection)(c)) {
  case U_RIGHT_TO_LEFT:
  case U_RIGHT_TO_LEFT_ARABIC:
  case U_ARABIC_NUMBER:
  case U_LEFT_TO_RIGHT_EMBEDDING:
  case U_LEFT_TO_RIGHT_OVERRIDE:
  case U_RIGHT_TO_LEFT_EMBEDDING:
  case U_RIGHT_TO_LEFT_OVERRIDE:
  case U_POP_DIRECTIONAL_FORMAT:
  case U_LEFT_TO_RIGHT_ISOLATE:
  case U_RIGHT_TO_LEFT_ISOLATE:
  case U_FIRST_STRONG_ISOLATE:
  case U_POP_DIRECTIONAL_ISOLATE:
    return 1;
  default:
    return 0;
  }
}

/// Speed: each thread's bidi object, opened once and kept (ICU keeps the memory it grew into
/// between paragraphs), closed when the thread ends. (Opened and closed for each paragraph, with
/// the allocations of its arrays: 0.55 M instructions more a pass over the mixed text's
/// paragraphs, callgrind.)
static pthread_key_t bidi_key;
static pthread_once_t bidi_key_once = PTHREAD_ONCE_INIT;
static void close_bidi(void *bidi) { ICU(ubidi_close)((UBiDi *)bidi); }
static void make_bidi_key(void) { pthread_key_create(&bidi_key, close_bidi); }

/// The thread's bidi object, with no class callback; NULL when it cannot be made.
static UBiDi *thread_bidi(void) {
  pthread_once(&bidi_key_once, make_bidi_key);
  UBiDi *bidi = pthread_getspecific(bidi_key);
  if (bidi == NULL) {
    // (Sized 0, 0: ICU grows its arrays as paragraphs need them, as `ubidi_open` does.)
    UErrorCode error = U_ZERO_ERROR;
    bidi = ICU(ubidi_openSized)(0, 0, &error);
    if (U_FAILURE(error) || bidi == NULL) return NULL;
    if (pthread_setspecific(bidi_key, bidi) != 0) {
      ICU(ubidi_close)(bidi);
      return NULL;
    }
  }
  return bidi;
}

int32_t swiftshape_bidi_resolve(const uint16_t *text, int32_t length, uint8_t paragraph_level,
                                const uint32_t *classes, int32_t class_count, uint8_t *levels,
                                uint8_t *resolved_level) {
  // Speed: in a left-to-right paragraph (or one that takes its direction from its text), text
  // without a character of the classes that can raise a level (see `raises_levels`) has every
  // level 0, and ICU's algorithm is not run (it cost about a microsecond a line: 3,000
  // instructions a word of Hindi). Nothing below U+0590 is of those classes.
  if (classes == NULL && paragraph_level != 1) {
    int32_t plain = 1, loaded = 0;
    for (int32_t i = 0; i < length && plain; ++i) {
      UChar32 c = text[i];
      if (c < 0x0590) continue;
      if (!loaded && !(loaded = swiftshape_have_icu())) return NO_ICU;
      if (U16_IS_LEAD(c) && i + 1 < length && U16_IS_TRAIL(text[i + 1])) c = U16_GET_SUPPLEMENTARY(c, text[++i]);
      plain = !swiftshape_raises_levels(c);
    }
    if (plain) {
      *resolved_level = 0;
      for (int32_t i = 0; i < length; ++i) levels[i] = 0;
      return 0;
    }
  }
  if (!swiftshape_have_icu()) return NO_ICU;
  UErrorCode error = U_ZERO_ERROR;
  UBiDi *bidi = thread_bidi();
  if (bidi == NULL) return U_MEMORY_ALLOCATION_ERROR;
  struct class_table table = {classes, class_count};
  if (classes != NULL) {
    UBiDiClassCallback *old_callback = NULL;
    const void *old_context = NULL;
    ICU(ubidi_setClassCallback)(bidi, class_of, &table, &old_callback, &old_context, &error);
  }
  // ICU keeps a pointer to the text, which lives until the end of this call.
  if (U_SUCCESS(error)) ICU(ubidi_setPara)(bidi, (const UChar *)text, length, paragraph_level, NULL, &error);
  if (U_SUCCESS(error)) {
    *resolved_level = ICU(ubidi_getParaLevel)(bidi);
    if (length > 0) {
      const UBiDiLevel *resolved = ICU(ubidi_getLevels)(bidi, &error);
      for (int32_t i = 0; U_SUCCESS(error) && i < length; ++i) levels[i] = resolved[i];
    }
  }
  // The object is kept for the thread's next paragraph: without the callback, whose table dies
  // with this call. (A paragraph of no text leaves the object pointing at no text either.)
  if (classes != NULL) {
    UErrorCode reset = U_ZERO_ERROR;
    UBiDiClassCallback *old_callback = NULL;
    const void *old_context = NULL;
    ICU(ubidi_setClassCallback)(bidi, NULL, NULL, &old_callback, &old_context, &reset);
  }
  return U_FAILURE(error) ? error : 0;
}

void swiftshape_bidi_reorder_visual(const uint8_t *levels, int32_t count, int32_t *map) {
  if (!swiftshape_have_icu()) {
    for (int32_t i = 0; i < count; ++i) map[i] = i;
    return;
  }
  ICU(ubidi_reorderVisual)(levels, count, map);
}

int32_t swiftshape_bidi_classes(const uint32_t *text, int32_t count, uint8_t *classes) {
  if (!swiftshape_have_icu()) return NO_ICU;
  for (int32_t i = 0; i < count; ++i) {
    const struct properties *found = properties_of((UChar32)text[i]);
    if (found == NULL) return U_MEMORY_ALLOCATION_ERROR;
    classes[i] = found->bidi_class;
  }
  return 0;
}

int32_t swiftshape_line_end_whitespace(const uint32_t *text, int32_t count, uint8_t *flags) {
  // ICU's UCharDirection classes that rule L1 resets: B, S, WS, LRE, LRO, RLE, RLO, PDF, BN, FSI,
  // LRI, RLI, PDI.
  const uint32_t resetting = 1u << U_BLOCK_SEPARATOR | 1u << U_SEGMENT_SEPARATOR | 1u << U_WHITE_SPACE_NEUTRAL |
                             1u << U_LEFT_TO_RIGHT_EMBEDDING | 1u << U_LEFT_TO_RIGHT_OVERRIDE |
                             1u << U_RIGHT_TO_LEFT_EMBEDDING | 1u << U_RIGHT_TO_LEFT_OVERRIDE |
                             1u << U_POP_DIRECTIONAL_FORMAT | 1u << U_BOUNDARY_NEUTRAL |
                             1u << U_FIRST_STRONG_ISOLATE | 1u << U_LEFT_TO_RIGHT_ISOLATE |
                             1u << U_RIGHT_TO_LEFT_ISOLATE | 1u << U_POP_DIRECTIONAL_ISOLATE;
  // Speed: below U+0700 (Latin to Arabic), the answer is kept once read (0 not yet, 1 no, 2
  // yes): read from the properties each time, Persian text's letters cost a tenth of breaking
  // its paragraphs into lines (callgrind).
  static _Atomic uint8_t low[0x700];
  int loaded = 0;
  for (int32_t i = 0; i < count; ++i) {
    uint32_t c = text[i];
    // Printable ASCII but the space is none of those classes.
    if (c >= 0x21 && c < 0x7F) {
      flags[i] = 0;
      continue;
    }
    if (c < 0x700) {
      uint8_t known = atomic_load_explicit(&low[c], memory_order_relaxed);
      if (known != 0) {
        flags[i] = known - 1;
        continue;
      }
    }
    if (!loaded && !(loaded = swiftshape_have_icu())) return NO_ICU;
    const struct properties *found = properties_of((UChar32)c);
    if (found == NULL) return U_MEMORY_ALLOCATION_ERROR;
    flags[i] = found->bidi_class < 32 && (resetting >> found->bidi_class & 1);
    if (c < 0x700) atomic_store_explicit(&low[c], (uint8_t)(flags[i] + 1), memory_order_relaxed);
  }
  return 0;
}

int32_t swiftshape_line_facts(const uint8_t *text, int32_t length, struct swiftshape_line_facts *facts) {
  *facts = (struct swiftshape_line_facts){0, 0, 0, 0, 0, 0};
  // Speed: the counts and the hard breaks each in a loop without an exit or a branch, which the
  // compiler vectorizes (callgrind: 11 instructions a byte in one loop that did both; then 2 a
  // byte for the counts and 6 for the hard breaks, looked for only at the bytes that can start
  // one, in Persian text, whose ZWNJ starts with E2). A hard break counts before the last
  // scalar's start (one at the end breaks nothing).
  int32_t scalars = 0;
  int32_t astral = 0;
  int32_t last_start = length > 0 ? length - 1 : 0;
  while (last_start > 0 && (text[last_start] & 0xC0) == 0x80) last_start -= 1;
  // Up to where the two bytes after a byte can be read.
  int32_t checked = last_start < length - 2 ? last_start : (length >= 2 ? length - 2 : 0);
  uint8_t hard_break = 0;
  for (int32_t i = 0; i < checked; ++i) {
    uint8_t byte = text[i], next = text[i + 1], after = text[i + 2];
    hard_break |= (uint8_t)(byte - 0x0A) <= 3;
    hard_break |= (byte == 0xC2) & (next == 0x85);
    hard_break |= (byte == 0xE2) & (next == 0x80) & ((after | 1) == 0xA9);
  }
  for (int32_t i = checked; i < last_start; ++i) {
    uint8_t byte = text[i];
    hard_break |= (uint8_t)(byte - 0x0A) <= 3;
    hard_break |= byte == 0xC2 && text[i + 1] == 0x85;
    hard_break |= byte == 0xE2 && i + 2 < length && text[i + 1] == 0x80 && (text[i + 2] | 1) == 0xA9;
  }
  for (int32_t i = 0; i < length; ++i) {
    scalars += (text[i] & 0xC0) != 0x80;
    astral += text[i] >= 0xF0;
  }
  facts->scalars = scalars;
  facts->utf16 = scalars + astral;
  facts->has_hard_break = hard_break;
  // The whitespace at the end, read back one scalar at a time.
  int32_t end = length;
  while (end > 0) {
    int32_t start = end - 1;
    while (start > 0 && (text[start] & 0xC0) == 0x80) start -= 1;
    uint32_t c = text[start];
    int32_t size = end - start;
    if (size == 2) c = (c & 0x1F) << 6 | (text[start + 1] & 0x3F);
    if (size == 3) c = (c & 0x0F) << 12 | (text[start + 1] & 0x3F) << 6 | (text[start + 2] & 0x3F);
    if (size == 4) {
      c = (c & 0x07) << 18 | (text[start + 1] & 0x3F) << 12 | (text[start + 2] & 0x3F) << 6 | (text[start + 3] & 0x3F);
    }
    uint8_t resets = 0;
    int32_t status = swiftshape_line_end_whitespace(&c, 1, &resets);
    if (status != 0) return status;
    if (!resets) break;
    facts->trailing_scalars += 1;
    facts->trailing_utf8 += size;
    facts->trailing_utf16 += size == 4 ? 2 : 1;
    end = start;
  }
  return 0;
}
