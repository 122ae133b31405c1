#include "swiftshape_unicode.h"

#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>

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

int32_t swiftshape_bidi_resolve(const uint16_t *text, int32_t length, uint8_t paragraph_level,
                                const uint32_t *classes, int32_t class_count, uint8_t *levels,
                                int32_t *visual_order, uint8_t *resolved_level) {
  UErrorCode error = U_ZERO_ERROR;
  UBiDi *bidi = ubidi_openSized(length, 0, &error);
  if (U_FAILURE(error)) return error;
  struct class_table table = {classes, class_count};
  if (classes != NULL) {
    UBiDiClassCallback *old_callback = NULL;
    const void *old_context = NULL;
    ubidi_setClassCallback(bidi, class_of, &table, &old_callback, &old_context, &error);
  }
  // ICU keeps a pointer to the text, which lives until the end of this call.
  if (U_SUCCESS(error)) ubidi_setPara(bidi, (const UChar *)text, length, paragraph_level, NULL, &error);
  if (U_SUCCESS(error)) {
    *resolved_level = ubidi_getParaLevel(bidi);
    if (length > 0) {
      const UBiDiLevel *resolved = ubidi_getLevels(bidi, &error);
      for (int32_t i = 0; U_SUCCESS(error) && i < length; ++i) levels[i] = resolved[i];
      if (U_SUCCESS(error)) ubidi_getVisualMap(bidi, visual_order, &error);
    }
  }
  ubidi_close(bidi);
  return U_FAILURE(error) ? error : 0;
}

const char *swiftshape_icu_error_name(int32_t code) { return u_errorName((UErrorCode)code); }

const char *swiftshape_icu_unicode_version(void) { return U_UNICODE_VERSION; }

int32_t swiftshape_script_properties(const uint32_t *text, int32_t count, int32_t *scripts, int32_t *extensions,
                                     int32_t per_point, uint8_t *brackets, uint32_t *pairs) {
  for (int32_t i = 0; i < count; ++i) {
    UChar32 c = (UChar32)text[i];
    UErrorCode error = U_ZERO_ERROR;
    scripts[i] = uscript_getScript(c, &error);
    if (U_FAILURE(error)) return error;
    int32_t *own = extensions + (int64_t)i * per_point;
    int32_t found = uscript_getScriptExtensions(c, (UScriptCode *)own, per_point, &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) {
      // More extensions than room: the first `per_point` are kept.
      error = U_ZERO_ERROR;
      found = per_point;
    }
    if (U_FAILURE(error)) return error;
    for (int32_t j = found; j < per_point; ++j) own[j] = -1;
    int32_t type = u_getIntPropertyValue(c, UCHAR_BIDI_PAIRED_BRACKET_TYPE);
    brackets[i] = type == U_BPT_OPEN ? 1 : type == U_BPT_CLOSE ? 2 : 0;
    pairs[i] = (uint32_t)u_getBidiPairedBracket(c);
  }
  return 0;
}

const char *swiftshape_script_code(int32_t script) { return uscript_getShortName((UScriptCode)script); }
