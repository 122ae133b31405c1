// Unicode's text algorithms from ICU, behind a plain C interface: only C's own types cross it, so
// that Swift code (and Foundation's own copy of ICU beside it) never sees ICU's headers.
#ifndef SWIFTSHAPE_UNICODE_H
#define SWIFTSHAPE_UNICODE_H

#include <stdint.h>

/// The paragraph level that means "from the first strong character, else left to right".
#define SWIFTSHAPE_BIDI_AUTO 0xFE

/// Resolves the embedding levels of one paragraph of UTF-16 text with ICU's bidi (UAX #9) and its
/// visual order. `classes`, when not NULL, gives the bidi class (ICU's UCharDirection value) of
/// the code points U+E000 + i, for testing the algorithm alone. `levels` and `visual_order` have
/// room for `length` values; `resolved_level` gets the paragraph's level.
///
/// Returns 0, or ICU's error code (see `swiftshape_icu_error_name`).
int32_t swiftshape_bidi_resolve(const uint16_t *text, int32_t length, uint8_t paragraph_level,
                                const uint32_t *classes, int32_t class_count, uint8_t *levels,
                                int32_t *visual_order, uint8_t *resolved_level);

/// ICU's name for an error code.
const char *swiftshape_icu_error_name(int32_t code);

/// The Unicode version of ICU's character data.
const char *swiftshape_icu_unicode_version(void);

#endif
