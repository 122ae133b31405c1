// Unicode's text algorithms from ICU, behind a plain C interface: only C's own types cross it, so
// that Swift code (and Foundation's own copy of ICU beside it) never sees ICU's headers.
#ifndef SWIFTSHAPE_UNICODE_H
#define SWIFTSHAPE_UNICODE_H

#include <stdint.h>

/// The paragraph level that means "from the first strong character, else left to right".
#define SWIFTSHAPE_BIDI_AUTO 0xFE

/// Resolves the embedding levels of one paragraph of UTF-16 text with ICU's bidi (UAX #9), after
/// rule L1 for the paragraph as one line. `classes`, when not NULL, gives the bidi class (ICU's
/// UCharDirection value) of the code points U+E000 + i, for testing the algorithm alone. `levels`
/// has room for `length` values; `resolved_level` gets the paragraph's level.
///
/// Returns 0, or ICU's error code (see `swiftshape_icu_error_name`).
int32_t swiftshape_bidi_resolve(const uint16_t *text, int32_t length, uint8_t paragraph_level,
                                const uint32_t *classes, int32_t class_count, uint8_t *levels,
                                uint8_t *resolved_level);

/// The visual order of `count` runs (or characters) of the given levels (rule L2):
/// `map[visual] = logical`.
void swiftshape_bidi_reorder_visual(const uint8_t *levels, int32_t count, int32_t *map);

/// Bits of `swiftshape_script_properties`' values above the script.
#define SWIFTSHAPE_OPENING_BRACKET 0x10000
#define SWIFTSHAPE_CLOSING_BRACKET 0x20000
#define SWIFTSHAPE_MORE_SCRIPTS 0x40000
#define SWIFTSHAPE_COMBINING_MARK 0x80000

/// The script properties of each code point of `text` (UTF-32, `count` of them), for script
/// itemization (UAX #24), one value each in `properties`: its Script value (ICU's UScriptCode) in
/// the low 16 bits, with SWIFTSHAPE_OPENING_BRACKET or SWIFTSHAPE_CLOSING_BRACKET for a paired
/// bracket, SWIFTSHAPE_MORE_SCRIPTS when its Script_Extensions say more than its Script (see
/// `swiftshape_script_extensions`), and SWIFTSHAPE_COMBINING_MARK for a nonspacing or enclosing mark
/// (General_Category Mn or Me).
///
/// Returns 0, or ICU's error code.
int32_t swiftshape_script_properties(const uint32_t *text, int32_t count, int32_t *properties);

/// The paired bracket of an opening or closing bracket (Bidi_Paired_Bracket); the code point
/// itself for others.
uint32_t swiftshape_paired_bracket(uint32_t code_point);

/// The Script_Extensions of a code point (ICU's UScriptCode values), at most `capacity` of them;
/// returns how many were written.
int32_t swiftshape_script_extensions(uint32_t code_point, int32_t *scripts, int32_t capacity);

/// The ISO 15924 code of an ICU script code ("Latn"), or NULL.
const char *swiftshape_script_code(int32_t script);

/// Flags of `swiftshape_fallback_properties`.
/// Default_Ignorable_Code_Point: drawn as nothing, so it needs no font that has it (joiners,
/// variation selectors, bidi controls).
#define SWIFTSHAPE_FALLBACK_IGNORABLE 0x01
/// The Emoji property.
#define SWIFTSHAPE_FALLBACK_EMOJI 0x02
/// Emoji_Presentation: drawn as an emoji unless a text presentation selector follows.
#define SWIFTSHAPE_FALLBACK_EMOJI_PRESENTATION 0x04
/// Makes its cluster an emoji: VS16 (U+FE0F), the keycap U+20E3, tags.
#define SWIFTSHAPE_FALLBACK_SELECTS_EMOJI 0x08
/// VS15 (U+FE0E), which asks for the text presentation.
#define SWIFTSHAPE_FALLBACK_SELECTS_TEXT 0x10
/// A space or a punctuation mark (General_Category Z or P).
#define SWIFTSHAPE_FALLBACK_SPACE_OR_PUNCTUATION 0x20

/// The properties font fallback reads of each code point of `text` (UTF-32, `count` of them):
/// SWIFTSHAPE_FALLBACK_* flags, one byte each in `flags`.
///
/// Returns 0, or ICU's error code.
int32_t swiftshape_fallback_properties(const uint32_t *text, int32_t count, uint8_t *flags);

/// The extended grapheme cluster boundaries (UAX #29, ICU's character break iterator) of `text`
/// (UTF-32, `count` code points), as code point indices from 0 to `count` in `boundaries`, which
/// has room for `count + 1`; `found` gets how many.
///
/// Returns 0, or ICU's error code.
int32_t swiftshape_grapheme_boundaries(const uint32_t *text, int32_t count, int32_t *boundaries, int32_t *found);

/// The line break opportunities (UAX #14, ICU's line break iterator) of `text` (UTF-32, `count`
/// code points): the code point indices before which a line may end, from 0 to `count`, in
/// `breaks`, which has room for `count + 1`; `mandatory[i]` is 1 where the line must end (after a
/// hard break: newline characters, U+2028, U+2029), 0 elsewhere. `found` gets how many.
///
/// Returns 0, or ICU's error code.
int32_t swiftshape_line_breaks(const uint32_t *text, int32_t count, int32_t *breaks, uint8_t *mandatory,
                               int32_t *found);

/// Gives the thread's line break finder `text` (UTF-32, `count` code points): ICU's line break
/// iterator over it, asked for one opportunity at a time by the functions below, which take the
/// `generation` it sets. The text is copied (as UTF-16); the finder holds it until the thread's
/// next call. (Finding the opportunities near each line's end reads a few words of text where
/// `swiftshape_line_breaks` reads all of it.)
///
/// Returns 0, or ICU's error code.
int32_t swiftshape_line_breaker_set(const uint32_t *text, int32_t count, uint64_t *generation);

/// The first line break opportunity after code point `index` of the finder's text (as
/// `swiftshape_line_breaks` gives them), with `mandatory` set as it sets it; -1 when there is none,
/// -2 when the thread's finder holds another text than that of `generation`.
int32_t swiftshape_line_breaker_following(uint64_t generation, int32_t index, uint8_t *mandatory);

/// The last line break opportunity before code point `index` (0, the start, when there is no
/// other); -1 when there is none, -2 when the finder holds another text.
int32_t swiftshape_line_breaker_preceding(uint64_t generation, int32_t index);

/// 1 when a line may end before code point `index`, else 0; -2 when the finder holds another text.
int32_t swiftshape_line_breaker_is_boundary(uint64_t generation, int32_t index);

/// What `swiftshape_line_facts` reads of a paragraph.
struct swiftshape_line_facts {
  /// Its length in code points and in UTF-16 code units.
  int32_t scalars, utf16;
  /// The whitespace at its end that rule L1 gives the paragraph level (as
  /// `swiftshape_line_end_whitespace` finds it): its length in code points, UTF-8 bytes and UTF-16
  /// code units.
  int32_t trailing_scalars, trailing_utf8, trailing_utf16;
  /// 1 when it has a hard break (U+000A to U+000D, U+0085, U+2028, U+2029) before its last code
  /// point, else 0.
  int32_t has_hard_break;
};

/// Reads `facts` of a paragraph (`text`: valid UTF-8, `length` bytes) from its bytes, for a
/// paragraph that may fit on one line: what breaking it would otherwise decode every code point
/// for.
///
/// Returns 0, or ICU's error code.
int32_t swiftshape_line_facts(const uint8_t *text, int32_t length, struct swiftshape_line_facts *facts);

/// The bidi class (ICU's UCharDirection value) of each code point of `text` (UTF-32), in
/// `classes`.
///
/// Returns 0, or ICU's error code.
int32_t swiftshape_bidi_classes(const uint32_t *text, int32_t count, uint8_t *classes);

/// For each code point of `text` (UTF-32), 1 in `flags` when rule L1 gives it the paragraph level
/// at the end of a line (whitespace, separators, isolates, and what rule X9 removes), else 0.
///
/// Returns 0, or ICU's error code.
int32_t swiftshape_line_end_whitespace(const uint32_t *text, int32_t count, uint8_t *flags);

/// Whether a paragraph of UTF-8 text (valid, `length` bytes) is one run: level 0 throughout (its
/// paragraph level `paragraph_level` is 0 or SWIFTSHAPE_BIDI_AUTO and no character can raise a
/// level) and one script (every character of one script, or Common or Inherited without
/// Script_Extensions of their own). Returns 1, with the script's ISO 15924 code as four bytes
/// ('Latn' is 0x4C61746E; Zyyy, Common, for text of no specific script) in `script_tag` and the
/// number of code points in `scalar_count`; 0 when the paragraph needs the full algorithms; -1
/// when ICU cannot be loaded or memory runs out.
int32_t swiftshape_simple_paragraph(const uint8_t *text, int32_t length, uint8_t paragraph_level,
                                    uint32_t *script_tag, int32_t *scalar_count);

/// ICU's error code for "ICU cannot be loaded" (U_MISSING_RESOURCE_ERROR).
#define SWIFTSHAPE_ICU_UNAVAILABLE 2

/// ICU's name for an error code.
const char *swiftshape_icu_error_name(int32_t code);

/// The Unicode version of ICU's character data.
const char *swiftshape_icu_unicode_version(void);

#endif
