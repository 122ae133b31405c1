// What the files of CUnicodeAlgorithms share and nothing else sees: ICU's functions (loaded when
// first needed on Linux), and each code point's properties as itemization and bidi read them.
#ifndef SWIFTSHAPE_UNICODE_INTERNAL_H
#define SWIFTSHAPE_UNICODE_INTERNAL_H

#include "swiftshape_unicode.h"

#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf16.h>

#include <stdatomic.h>

#define SWIFTSHAPE_HIDDEN __attribute__((visibility("hidden")))

/// Whether ICU is there (loaded on the first call, on Linux).
SWIFTSHAPE_HIDDEN int swiftshape_have_icu(void);

// On Linux, libicuuc is loaded when it is first needed, not when the program starts (see
// icu.c): its functions are called through the table loaded. Elsewhere ICU is linked as usual.
#if defined(__linux__)
struct swiftshape_icu_functions {
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
};


SWIFTSHAPE_HIDDEN extern struct swiftshape_icu_functions swiftshape_icu;
#define ICU(name) swiftshape_icu.name
#else
#define ICU(name) name
#endif

/// The error when ICU cannot be loaded.
#define NO_ICU U_MISSING_RESOURCE_ERROR

/// Whether a character can give text a level other than 0 in a left-to-right paragraph, or make
/// a paragraph that takes its direction from its text right to left (see bidi.c).
SWIFTSHAPE_HIDDEN int swiftshape_raises_levels(UChar32 c);

/// A code point's properties for itemization: its packed value (see
/// `swiftshape_script_properties`) and its paired bracket.
struct properties {
  int32_t packed;
  uint32_t pair;
  /// SWIFTSHAPE_FALLBACK_* flags.
  uint8_t fallback;
  /// Whether its bidi class can raise a level (see `swiftshape_raises_levels`).
  uint8_t raises_levels;
  /// Its bidi class (ICU's UCharDirection).
  uint8_t bidi_class;
  /// The ISO 15924 code of its script as four bytes ('Latn' is 0x4C61746E).
  uint32_t script_tag;
};

// Speed: the properties of each block of 256 code points, read from ICU the first time a
// character of the block is met (about 80,000 instructions) and kept; four ICU calls a character
// were most of the cost of itemizing a paragraph (3,000 words of Hindi: 3.8M instructions, 0.75M
// with the blocks; `--paragraph` on one word of English starts in 0.36M instructions fewer than
// with a table of U+0000-U+07FF read at once). A block is published with an atomic
// compare-and-swap: of threads that build the same block at once, the first one's is kept. (The
// block's lookup is inline here: the loops over a text's characters in each file call it.)
#define BLOCK_BITS 8
#define BLOCK_SIZE (1 << BLOCK_BITS)
SWIFTSHAPE_HIDDEN extern _Atomic(struct properties *) swiftshape_property_blocks[0x110000 >> BLOCK_BITS];

/// Reads the block of `c` from ICU and publishes it; NULL when memory runs out.
SWIFTSHAPE_HIDDEN struct properties *swiftshape_read_property_block(UChar32 c);

/// The properties of `c` (a Unicode scalar value), or NULL when memory runs out.
static inline const struct properties *properties_of(UChar32 c) {
  if (c < 0 || c > 0x10FFFF) c = 0xFFFD;
  struct properties *block =
      atomic_load_explicit(&swiftshape_property_blocks[c >> BLOCK_BITS], memory_order_acquire);
  if (block == NULL && (block = swiftshape_read_property_block(c)) == NULL) return NULL;
  return &block[c & (BLOCK_SIZE - 1)];
}

#endif
