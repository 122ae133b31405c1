#include "swiftshape_unicode.h"

#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf16.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

// On Linux, libicuuc is loaded when it is first needed, not when the program starts: loading it,
// its 30 MB of data and the libstdc++ it needs cost about a third of a millisecond at every start
// of a command that shapes one word and uses none of it. Elsewhere ICU is linked as usual.
#if defined(__linux__)
#include <dlfcn.h>

// ICU's headers rename every function to its versioned symbol (ubidi_open is ubidi_open_72 in ICU
// 72): SYMBOL gives that name, as the string dlsym looks for.
#define SYMBOL_STRING(name) #name
#define SYMBOL(name) SYMBOL_STRING(name)
#define LIBRARY_STRING(major) "libicuuc.so." #major
#define LIBRARY(major) LIBRARY_STRING(major)

static struct {
  int loaded;
  UBiDi *(*ubidi_openSized)(int32_t, int32_t, UErrorCode *);
  void (*ubidi_close)(UBiDi *);
  void (*ubidi_setClassCallback)(UBiDi *, UBiDiClassCallback *, const void *, UBiDiClassCallback **, const void **,
                                 UErrorCode *);
  void (*ubidi_setPara)(UBiDi *, const UChar *, int32_t, UBiDiLevel, UBiDiLevel *, UErrorCode *);
  UBiDiLevel (*ubidi_getParaLevel)(const UBiDi *);
  const UBiDiLevel *(*ubidi_getLevels)(UBiDi *, UErrorCode *);
  void (*ubidi_reorderVisual)(const UBiDiLevel *, int32_t, int32_t *);
  UScriptCode (*uscript_getScript)(UChar32, UErrorCode *);
  int32_t (*uscript_getScriptExtensions)(UChar32, UScriptCode *, int32_t, UErrorCode *);
  const char *(*uscript_getShortName)(UScriptCode);
  int32_t (*u_getIntPropertyValue)(UChar32, UProperty);
  UChar32 (*u_getBidiPairedBracket)(UChar32);
  UCharDirection (*u_charDirection)(UChar32);
  UBool (*u_hasBinaryProperty)(UChar32, UProperty);
  int8_t (*u_charType)(UChar32);
  UBreakIterator *(*ubrk_open)(UBreakIteratorType, const char *, const UChar *, int32_t, UErrorCode *);
  void (*ubrk_setText)(UBreakIterator *, const UChar *, int32_t, UErrorCode *);
  int32_t (*ubrk_first)(UBreakIterator *);
  int32_t (*ubrk_next)(UBreakIterator *);
  int32_t (*ubrk_following)(UBreakIterator *, int32_t);
  int32_t (*ubrk_preceding)(UBreakIterator *, int32_t);
  UBool (*ubrk_isBoundary)(UBreakIterator *, int32_t);
  void (*ubrk_close)(UBreakIterator *);
  int32_t (*ubrk_getRuleStatus)(UBreakIterator *);
  const char *(*u_errorName)(UErrorCode);
} icu;

static pthread_once_t icu_once = PTHREAD_ONCE_INIT;

static void load_icu(void) {
  // RTLD_LAZY: only the functions called are bound (RTLD_NOW bound all of libicuuc's and
  // libstdc++'s at load: 2.9M instructions, about a millisecond at the start of every command
  // that shapes a paragraph).
  void *library = dlopen(LIBRARY(U_ICU_VERSION_MAJOR_NUM), RTLD_LAZY | RTLD_LOCAL);
  if (library == NULL) return;
#define LOAD(name) *(void **)&icu.name = dlsym(library, SYMBOL(name)); if (icu.name == NULL) return
  LOAD(ubidi_openSized);
  LOAD(ubidi_close);
  LOAD(ubidi_setClassCallback);
  LOAD(ubidi_setPara);
  LOAD(ubidi_getParaLevel);
  LOAD(ubidi_getLevels);
  LOAD(ubidi_reorderVisual);
  LOAD(uscript_getScript);
  LOAD(uscript_getScriptExtensions);
  LOAD(uscript_getShortName);
  LOAD(u_getIntPropertyValue);
  LOAD(u_getBidiPairedBracket);
  LOAD(u_charDirection);
  LOAD(u_hasBinaryProperty);
  LOAD(u_charType);
  LOAD(ubrk_open);
  LOAD(ubrk_setText);
  LOAD(ubrk_first);
  LOAD(ubrk_next);
  LOAD(ubrk_following);
  LOAD(ubrk_preceding);
  LOAD(ubrk_isBoundary);
  LOAD(ubrk_close);
  LOAD(ubrk_getRuleStatus);
  LOAD(u_errorName);
#undef LOAD
  icu.loaded = 1;
}

/// Whether ICU is there (loaded on the first call).
static int have_icu(void) {
  pthread_once(&icu_once, load_icu);
  return icu.loaded;
}

#define ICU(name) icu.name
#else
static int have_icu(void) { return 1; }
#define ICU(name) name
#endif

/// The error when ICU cannot be loaded.
#define NO_ICU U_MISSING_RESOURCE_ERROR
/// `swiftshape_simple_paragraph`'s answer when ICU cannot be loaded or memory runs out.
#define NO_ICU_SIMPLE (-1)

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

/// Whether a character can give text a level other than 0 in a left-to-right paragraph, or make
/// a paragraph that takes its direction from its text right to left: its bidi class is R, AL or
/// AN, or an explicit embedding, override or isolate, or their ends. Without one, rules W1-W7
/// resolve European numbers to L, and N1-N2 neutrals to L, all at level 0.
static int raises_levels(UChar32 c) {
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
      if (!loaded && !(loaded = have_icu())) return NO_ICU;
      if (U16_IS_LEAD(c) && i + 1 < length && U16_IS_TRAIL(text[i + 1])) c = U16_GET_SUPPLEMENTARY(c, text[++i]);
      plain = !raises_levels(c);
    }
    if (plain) {
      *resolved_level = 0;
      for (int32_t i = 0; i < length; ++i) levels[i] = 0;
      return 0;
    }
  }
  if (!have_icu()) return NO_ICU;
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

const char *swiftshape_icu_error_name(int32_t code) {
  if (code == NO_ICU && !have_icu()) return "libicuuc could not be loaded";
  return ICU(u_errorName)((UErrorCode)code);
}

const char *swiftshape_icu_unicode_version(void) { return U_UNICODE_VERSION; }

/// Whether a code point's Script_Extensions say more than its Script.
static int has_own_extensions(UChar32 c, int32_t script) {
  UErrorCode error = U_ZERO_ERROR;
  UScriptCode codes[2];
  int32_t found = ICU(uscript_getScriptExtensions)(c, codes, 2, &error);
  return error == U_BUFFER_OVERFLOW_ERROR || (U_SUCCESS(error) && (found != 1 || codes[0] != script));
}

/// A code point's properties for itemization: its packed value (see
/// `swiftshape_script_properties`) and its paired bracket.
struct properties {
  int32_t packed;
  uint32_t pair;
  /// SWIFTSHAPE_FALLBACK_* flags.
  uint8_t fallback;
  /// Whether its bidi class can raise a level (see `raises_levels`).
  uint8_t raises_levels;
  /// Its bidi class (ICU's UCharDirection).
  uint8_t bidi_class;
  /// The ISO 15924 code of its script as four bytes ('Latn' is 0x4C61746E).
  uint32_t script_tag;
};

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
                             (uint8_t)raises_levels(c), (uint8_t)ICU(u_charDirection)(c), tag};
}

// Speed: the properties of each block of 256 code points, read from ICU the first time a
// character of the block is met (about 80,000 instructions) and kept; four ICU calls a character
// were most of the cost of itemizing a paragraph (3,000 words of Hindi: 3.8M instructions, 0.75M
// with the blocks; `--paragraph` on one word of English starts in 0.36M instructions fewer than
// with a table of U+0000-U+07FF read at once). A block is published with an atomic
// compare-and-swap: of threads that build the same block at once, the first one's is kept.
#define BLOCK_BITS 8
#define BLOCK_SIZE (1 << BLOCK_BITS)
static _Atomic(struct properties *) blocks[0x110000 >> BLOCK_BITS];

/// The properties of `c` (a Unicode scalar value), or NULL when memory runs out.
static const struct properties *properties_of(UChar32 c) {
  if (c < 0 || c > 0x10FFFF) c = 0xFFFD;
  _Atomic(struct properties *) *slot = &blocks[c >> BLOCK_BITS];
  struct properties *block = atomic_load_explicit(slot, memory_order_acquire);
  if (block == NULL) {
    struct properties *made = malloc(sizeof(struct properties) * BLOCK_SIZE);
    if (made == NULL) return NULL;
    UChar32 first = c & ~(BLOCK_SIZE - 1);
    for (int i = 0; i < BLOCK_SIZE; ++i) made[i] = read_properties(first + i);
    if (atomic_compare_exchange_strong_explicit(slot, &block, made, memory_order_acq_rel, memory_order_acquire)) {
      block = made;
    } else {
      free(made);
    }
  }
  return &block[c & (BLOCK_SIZE - 1)];
}

int32_t swiftshape_script_properties(const uint32_t *text, int32_t count, int32_t *properties) {
  if (!have_icu()) return NO_ICU;
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
  const struct properties *found = have_icu() ? properties_of((UChar32)code_point) : NULL;
  return found ? found->pair : code_point;
}

int32_t swiftshape_script_extensions(uint32_t code_point, int32_t *scripts, int32_t capacity) {
  if (!have_icu()) return 0;
  UErrorCode error = U_ZERO_ERROR;
  int32_t found = ICU(uscript_getScriptExtensions)((UChar32)code_point, (UScriptCode *)scripts, capacity, &error);
  if (error == U_BUFFER_OVERFLOW_ERROR) return capacity;
  return U_SUCCESS(error) ? found : 0;
}

const char *swiftshape_script_code(int32_t script) {
  return have_icu() ? ICU(uscript_getShortName)((UScriptCode)script) : NULL;
}

void swiftshape_bidi_reorder_visual(const uint8_t *levels, int32_t count, int32_t *map) {
  if (!have_icu()) {
    for (int32_t i = 0; i < count; ++i) map[i] = i;
    return;
  }
  ICU(ubidi_reorderVisual)(levels, count, map);
}

int32_t swiftshape_fallback_properties(const uint32_t *text, int32_t count, uint8_t *flags) {
  if (!have_icu()) return NO_ICU;
  for (int32_t i = 0; i < count; ++i) {
    const struct properties *found = properties_of((UChar32)text[i]);
    if (found == NULL) return U_MEMORY_ALLOCATION_ERROR;
    flags[i] = found->fallback;
  }
  return 0;
}

// A break iterator is costly to open (ICU builds it from its rules: tens of microseconds), so each
// thread keeps one of each kind, closed when the thread ends.
static pthread_key_t iterator_keys[2];
static pthread_key_t breaker_key;
static pthread_once_t iterator_keys_once = PTHREAD_ONCE_INIT;

/// A thread's line break finder (`swiftshape_line_breaker_*`): one text in UTF-16 for its own
/// line break iterator, with the code point of each unit and the unit of each code point.
struct line_breaker {
  UBreakIterator *iterator;
  uint16_t *units;
  int32_t *scalar_of_unit;
  int32_t *unit_of_scalar;
  int32_t capacity;
  int32_t count;
  int32_t length;
  uint64_t generation;
};

static void close_iterator(void *iterator) { ICU(ubrk_close)(iterator); }
static void close_breaker(void *pointer) {
  struct line_breaker *breaker = pointer;
  if (breaker->iterator != NULL) ICU(ubrk_close)(breaker->iterator);
  free(breaker->units);
  free(breaker->scalar_of_unit);
  free(breaker->unit_of_scalar);
  free(breaker);
}
static void make_iterator_keys(void) {
  pthread_key_create(&iterator_keys[0], close_iterator);
  pthread_key_create(&iterator_keys[1], close_iterator);
  pthread_key_create(&breaker_key, close_breaker);
}

/// The boundaries of `text` (UTF-32) that a break iterator of `type` finds, as code point indices
/// from 0 to `count`, each with its rule status in `statuses` when not NULL.
static int32_t find_boundaries(UBreakIteratorType type, int key, const uint32_t *text, int32_t count,
                               int32_t *boundaries, int32_t *statuses, int32_t *found) {
  *found = 0;
  if (!have_icu()) return NO_ICU;
  if (count == 0) return 0;
  // ICU breaks UTF-16: the text is converted, with the code point index of each unit kept.
  uint16_t *units = malloc(sizeof(uint16_t) * 2 * (size_t)count);
  int32_t *scalar_of_unit = malloc(sizeof(int32_t) * (2 * (size_t)count + 1));
  if (units == NULL || scalar_of_unit == NULL) {
    free(units);
    free(scalar_of_unit);
    return U_MEMORY_ALLOCATION_ERROR;
  }
  int32_t length = 0;
  for (int32_t i = 0; i < count; ++i) {
    UChar32 c = (UChar32)text[i];
    if (c > 0xFFFF) {
      scalar_of_unit[length] = i;
      units[length++] = (uint16_t)U16_LEAD(c);
      scalar_of_unit[length] = i;
      units[length++] = (uint16_t)U16_TRAIL(c);
    } else {
      scalar_of_unit[length] = i;
      units[length++] = (uint16_t)c;
    }
  }
  scalar_of_unit[length] = count;
  UErrorCode error = U_ZERO_ERROR;
  pthread_once(&iterator_keys_once, make_iterator_keys);
  UBreakIterator *iterator = pthread_getspecific(iterator_keys[key]);
  if (iterator == NULL) {
    iterator = ICU(ubrk_open)(type, "", NULL, 0, &error);
    if (U_SUCCESS(error)) pthread_setspecific(iterator_keys[key], iterator);
  }
  if (U_SUCCESS(error)) ICU(ubrk_setText)(iterator, (const UChar *)units, length, &error);
  if (U_SUCCESS(error)) {
    int32_t n = 0;
    for (int32_t at = ICU(ubrk_first)(iterator); at != UBRK_DONE; at = ICU(ubrk_next)(iterator)) {
      boundaries[n] = scalar_of_unit[at];
      if (statuses != NULL) statuses[n] = ICU(ubrk_getRuleStatus)(iterator);
      ++n;
    }
    *found = n;
    // The iterator must not keep a pointer to text that is freed.
    ICU(ubrk_setText)(iterator, NULL, 0, &error);
    error = U_ZERO_ERROR;
  }
  free(units);
  free(scalar_of_unit);
  return U_FAILURE(error) ? error : 0;
}

int32_t swiftshape_grapheme_boundaries(const uint32_t *text, int32_t count, int32_t *boundaries, int32_t *found) {
  return find_boundaries(UBRK_CHARACTER, 0, text, count, boundaries, NULL, found);
}

int32_t swiftshape_line_breaks(const uint32_t *text, int32_t count, int32_t *breaks, uint8_t *mandatory,
                               int32_t *found) {
  int32_t *statuses = malloc(sizeof(int32_t) * ((size_t)count + 1));
  if (statuses == NULL) return U_MEMORY_ALLOCATION_ERROR;
  int32_t status = find_boundaries(UBRK_LINE, 1, text, count, breaks, statuses, found);
  for (int32_t i = 0; i < *found; ++i) {
    mandatory[i] = statuses[i] >= UBRK_LINE_HARD && statuses[i] < UBRK_LINE_HARD_LIMIT;
  }
  free(statuses);
  return status;
}

int32_t swiftshape_line_breaker_set(const uint32_t *text, int32_t count, uint64_t *generation) {
  if (!have_icu()) return NO_ICU;
  pthread_once(&iterator_keys_once, make_iterator_keys);
  struct line_breaker *breaker = pthread_getspecific(breaker_key);
  if (breaker == NULL) {
    breaker = calloc(1, sizeof(struct line_breaker));
    if (breaker == NULL) return U_MEMORY_ALLOCATION_ERROR;
    pthread_setspecific(breaker_key, breaker);
  }
  UErrorCode error = U_ZERO_ERROR;
  if (breaker->iterator == NULL) {
    breaker->iterator = ICU(ubrk_open)(UBRK_LINE, "", NULL, 0, &error);
    if (U_FAILURE(error)) {
      breaker->iterator = NULL;
      return error;
    }
  }
  if (count + 1 > breaker->capacity) {
    // The iterator must not keep a pointer to the storage freed.
    ICU(ubrk_setText)(breaker->iterator, NULL, 0, &error);
    error = U_ZERO_ERROR;
    breaker->count = 0;
    breaker->length = 0;
    int32_t capacity = count + 1 > 2 * breaker->capacity ? count + 1 : 2 * breaker->capacity;
    uint16_t *units = realloc(breaker->units, sizeof(uint16_t) * 2 * (size_t)capacity);
    if (units != NULL) breaker->units = units;
    int32_t *scalar_of_unit = realloc(breaker->scalar_of_unit, sizeof(int32_t) * 2 * (size_t)capacity);
    if (scalar_of_unit != NULL) breaker->scalar_of_unit = scalar_of_unit;
    int32_t *unit_of_scalar = realloc(breaker->unit_of_scalar, sizeof(int32_t) * (size_t)capacity);
    if (unit_of_scalar != NULL) breaker->unit_of_scalar = unit_of_scalar;
    if (units == NULL || scalar_of_unit == NULL || unit_of_scalar == NULL) return U_MEMORY_ALLOCATION_ERROR;
    breaker->capacity = capacity;
  }
  int32_t length = 0;
  for (int32_t i = 0; i < count; ++i) {
    UChar32 c = (UChar32)text[i];
    breaker->unit_of_scalar[i] = length;
    breaker->scalar_of_unit[length] = i;
    if (c > 0xFFFF) {
      breaker->units[length++] = (uint16_t)U16_LEAD(c);
      breaker->scalar_of_unit[length] = i;
      breaker->units[length++] = (uint16_t)U16_TRAIL(c);
    } else {
      breaker->units[length++] = (uint16_t)c;
    }
  }
  breaker->unit_of_scalar[count] = length;
  breaker->scalar_of_unit[length] = count;
  ICU(ubrk_setText)(breaker->iterator, (const UChar *)breaker->units, length, &error);
  if (U_FAILURE(error)) {
    breaker->count = 0;
    breaker->length = 0;
    return error;
  }
  breaker->count = count;
  breaker->length = length;
  *generation = ++breaker->generation;
  return 0;
}

/// The thread's line break finder, if it still holds the text of `generation`.
static struct line_breaker *breaker_of(uint64_t generation) {
  pthread_once(&iterator_keys_once, make_iterator_keys);
  struct line_breaker *breaker = pthread_getspecific(breaker_key);
  return breaker != NULL && breaker->generation == generation ? breaker : NULL;
}

int32_t swiftshape_line_breaker_following(uint64_t generation, int32_t index, uint8_t *mandatory) {
  struct line_breaker *breaker = breaker_of(generation);
  if (breaker == NULL) return -2;
  if (index < 0 || index >= breaker->count) return -1;
  int32_t at = ICU(ubrk_following)(breaker->iterator, breaker->unit_of_scalar[index]);
  if (at == UBRK_DONE) return -1;
  int32_t status = ICU(ubrk_getRuleStatus)(breaker->iterator);
  *mandatory = (status >= UBRK_LINE_HARD && status < UBRK_LINE_HARD_LIMIT) || at == breaker->length;
  return breaker->scalar_of_unit[at];
}

int32_t swiftshape_line_breaker_preceding(uint64_t generation, int32_t index) {
  struct line_breaker *breaker = breaker_of(generation);
  if (breaker == NULL) return -2;
  if (index <= 0 || index > breaker->count) return -1;
  int32_t at = ICU(ubrk_preceding)(breaker->iterator, breaker->unit_of_scalar[index]);
  return at == UBRK_DONE ? -1 : breaker->scalar_of_unit[at];
}

int32_t swiftshape_line_breaker_is_boundary(uint64_t generation, int32_t index) {
  struct line_breaker *breaker = breaker_of(generation);
  if (breaker == NULL) return -2;
  if (index < 0 || index > breaker->count) return 0;
  return ICU(ubrk_isBoundary)(breaker->iterator, breaker->unit_of_scalar[index]) ? 1 : 0;
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
    if (!loaded && !(loaded = have_icu())) return NO_ICU_SIMPLE;
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

int32_t swiftshape_bidi_classes(const uint32_t *text, int32_t count, uint8_t *classes) {
  if (!have_icu()) return NO_ICU;
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
    if (!loaded && !(loaded = have_icu())) return NO_ICU;
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
