// ICU's common library (icu-uc): the Unicode bidirectional algorithm, for Swift.
//
// ICU's headers rename every function to a versioned symbol (ubidi_open is a macro for
// ubidi_open_72 in ICU 72): Swift imports the versioned names, which would tie the code to one ICU
// release. Each function SwiftShape calls is wrapped here once, under an unversioned name, so that
// the C compiler applies ICU's renaming for whatever version is installed.
#ifndef SWIFTSHAPE_CICU_SHIM_H
#define SWIFTSHAPE_CICU_SHIM_H

#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>

static inline UBiDi *swiftshape_ubidi_openSized(int32_t maxLength, int32_t maxRunCount, UErrorCode *error) {
  return ubidi_openSized(maxLength, maxRunCount, error);
}

static inline void swiftshape_ubidi_close(UBiDi *bidi) { ubidi_close(bidi); }

static inline void swiftshape_ubidi_setPara(UBiDi *bidi, const UChar *text, int32_t length, UBiDiLevel paragraphLevel,
                                            UErrorCode *error) {
  ubidi_setPara(bidi, text, length, paragraphLevel, NULL, error);
}

static inline void swiftshape_ubidi_setLine(const UBiDi *paragraph, int32_t start, int32_t limit, UBiDi *line,
                                            UErrorCode *error) {
  ubidi_setLine(paragraph, start, limit, line, error);
}

static inline UBiDiLevel swiftshape_ubidi_getParaLevel(const UBiDi *bidi) { return ubidi_getParaLevel(bidi); }

static inline const UBiDiLevel *swiftshape_ubidi_getLevels(UBiDi *bidi, UErrorCode *error) {
  return ubidi_getLevels(bidi, error);
}

static inline int32_t swiftshape_ubidi_countRuns(UBiDi *bidi, UErrorCode *error) {
  return ubidi_countRuns(bidi, error);
}

static inline UBiDiDirection swiftshape_ubidi_getVisualRun(UBiDi *bidi, int32_t runIndex, int32_t *logicalStart,
                                                           int32_t *length) {
  return ubidi_getVisualRun(bidi, runIndex, logicalStart, length);
}

static inline void swiftshape_ubidi_getVisualMap(UBiDi *bidi, int32_t *indexMap, UErrorCode *error) {
  ubidi_getVisualMap(bidi, indexMap, error);
}

static inline void swiftshape_ubidi_setClassCallback(UBiDi *bidi, UBiDiClassCallback *callback, const void *context,
                                                     UErrorCode *error) {
  UBiDiClassCallback *oldCallback = NULL;
  const void *oldContext = NULL;
  ubidi_setClassCallback(bidi, callback, context, &oldCallback, &oldContext, error);
}

static inline const char *swiftshape_u_errorName(UErrorCode code) { return u_errorName(code); }

// The Unicode version of ICU's character data ("15.0" for ICU 72).
static inline const char *swiftshape_unicode_version(void) { return U_UNICODE_VERSION; }

// UBIDI_DEFAULT_LTR and UBIDI_DEFAULT_RTL: a paragraph level that means "from the first strong
// character", with this default.
static inline UBiDiLevel swiftshape_ubidi_default_ltr(void) { return UBIDI_DEFAULT_LTR; }
static inline UBiDiLevel swiftshape_ubidi_default_rtl(void) { return UBIDI_DEFAULT_RTL; }

#endif
