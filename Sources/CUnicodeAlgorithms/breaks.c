// Line and grapheme cluster boundaries (UAX #14, UAX #29) through ICU's break iterators.
#include "unicode_internal.h"

#include <pthread.h>
#include <stdlib.h>

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
  if (!swiftshape_have_icu()) return NO_ICU;
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
  if (!swiftshape_have_icu()) return NO_ICU;
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

