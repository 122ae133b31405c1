#include "swiftshape_unicode.h"

#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf16.h>

// On Linux, libicuuc is loaded when it is first needed, not when the program starts: loading it,
// its 30 MB of data and the libstdc++ it needs cost about a third of a millisecond at every start
// of a command that shapes one word and uses none of it. Elsewhere ICU is linked as usual.
#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>

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
  const char *(*u_errorName)(UErrorCode);
} icu;

static pthread_once_t icu_once = PTHREAD_ONCE_INIT;

static void load_icu(void) {
  void *library = dlopen(LIBRARY(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
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
  UBiDi *bidi = ICU(ubidi_openSized)(length, 0, &error);
  if (U_FAILURE(error)) return error;
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
  ICU(ubidi_close)(bidi);
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

// Speed: the properties of U+0000 to U+07FF (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic and
// the punctuation they use), read from ICU once; four ICU calls a character were most of the cost
// of a paragraph of Latin text.
#define TABLE_SIZE 0x800
static struct {
  int16_t script;
  uint8_t bracket;
  uint8_t extended;
  uint16_t pair;
} table[TABLE_SIZE];
static int table_ready;
#if defined(__linux__)
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
#endif

static void read_properties(UChar32 c, int32_t *script, uint8_t *bracket, uint32_t *pair, uint8_t *extended) {
  UErrorCode error = U_ZERO_ERROR;
  *script = ICU(uscript_getScript)(c, &error);
  if (U_FAILURE(error)) *script = USCRIPT_UNKNOWN;
  int32_t type = ICU(u_getIntPropertyValue)(c, UCHAR_BIDI_PAIRED_BRACKET_TYPE);
  *bracket = type == U_BPT_OPEN ? 1 : type == U_BPT_CLOSE ? 2 : 0;
  *pair = (uint32_t)ICU(u_getBidiPairedBracket)(c);
  *extended = (uint8_t)has_own_extensions(c, *script);
}

static void build_table(void) {
  for (UChar32 c = 0; c < TABLE_SIZE; ++c) {
    int32_t script;
    uint32_t pair;
    read_properties(c, &script, &table[c].bracket, &pair, &table[c].extended);
    table[c].script = (int16_t)script;
    table[c].pair = (uint16_t)pair;
  }
  table_ready = 1;
}

int32_t swiftshape_script_properties(const uint32_t *text, int32_t count, int32_t *properties) {
  if (!have_icu()) return NO_ICU;
#if defined(__linux__)
  pthread_once(&table_once, build_table);
#else
  if (!table_ready) build_table();
#endif
  for (int32_t i = 0; i < count; ++i) {
    UChar32 c = (UChar32)text[i];
    int32_t script;
    uint8_t bracket, extended;
    if (c < TABLE_SIZE) {
      script = table[c].script;
      bracket = table[c].bracket;
      extended = table[c].extended;
    } else {
      uint32_t pair;
      read_properties(c, &script, &bracket, &pair, &extended);
    }
    properties[i] = script | (bracket == 1   ? SWIFTSHAPE_OPENING_BRACKET
                              : bracket == 2 ? SWIFTSHAPE_CLOSING_BRACKET
                                             : 0) |
                    (extended ? SWIFTSHAPE_MORE_SCRIPTS : 0);
  }
  return 0;
}

uint32_t swiftshape_paired_bracket(uint32_t code_point) {
  if (code_point < TABLE_SIZE) return table[code_point].pair;
  return have_icu() ? (uint32_t)ICU(u_getBidiPairedBracket)((UChar32)code_point) : code_point;
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
