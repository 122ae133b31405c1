// fontconfig's public header, as one module for Swift, and a table of the functions SwiftShape calls.
#ifndef SWIFTSHAPE_CFONTCONFIG_SHIM_H
#define SWIFTSHAPE_CFONTCONFIG_SHIM_H

#include <fontconfig/fontconfig.h>

// FC_FILE, FC_INDEX, FC_FAMILY, … are string macros Swift imports as they are; FcPatternBuild and
// FcObjectSetBuild are variadic and are not imported, so callers use FcPatternAdd* and
// FcObjectSetAdd instead.
//
// SwiftShape calls fontconfig only to find fonts by name, yet loading libfontconfig and libexpat
// at start-up costs every run of `swiftshape shape FILE` about a fifth of a millisecond. On Linux
// the functions below therefore load libfontconfig on first use (dlopen) and call it through
// pointers (a release build links with --as-needed, so the executable does not load it at start).
// Elsewhere the table holds fontconfig's own functions, linked as usual.

// (function, return type, parameters, arguments)
#define SWIFTSHAPE_FONTCONFIG_FUNCTIONS(F)                                                          \
  F(FcGetVersion, int, (void), ())                                                                 \
  F(FcConfigReference, FcConfig *, (FcConfig * config), (config))                                 \
  F(FcConfigDestroy, void, (FcConfig * config), (config))                                         \
  F(FcConfigSubstitute, FcBool, (FcConfig * config, FcPattern * pattern, FcMatchKind kind),        \
    (config, pattern, kind))                                                                       \
  F(FcDefaultSubstitute, void, (FcPattern * pattern), (pattern))                                  \
  F(FcFontMatch, FcPattern *, (FcConfig * config, FcPattern * pattern, FcResult * result),         \
    (config, pattern, result))                                                                     \
  F(FcFontList, FcFontSet *, (FcConfig * config, FcPattern * pattern, FcObjectSet * objects),      \
    (config, pattern, objects))                                                                    \
  F(FcFontSetDestroy, void, (FcFontSet * set), (set))                                             \
  F(FcNameParse, FcPattern *, (const FcChar8 *name), (name))                                      \
  F(FcPatternCreate, FcPattern *, (void), ())                                                     \
  F(FcPatternDestroy, void, (FcPattern * pattern), (pattern))                                     \
  F(FcPatternGetString, FcResult,                                                                  \
    (const FcPattern *pattern, const char *object, int n, FcChar8 **value),                       \
    (pattern, object, n, value))                                                                   \
  F(FcPatternGetInteger, FcResult,                                                                 \
    (const FcPattern *pattern, const char *object, int n, int *value), (pattern, object, n, value)) \
  F(FcObjectSetCreate, FcObjectSet *, (void), ())                                                 \
  F(FcObjectSetAdd, FcBool, (FcObjectSet * objects, const char *object), (objects, object))       \
  F(FcObjectSetDestroy, void, (FcObjectSet * objects), (objects))                                \
  F(FcFontSort, FcFontSet *,                                                                       \
    (FcConfig * config, FcPattern * pattern, FcBool trim, FcCharSet * *charset, FcResult * result), \
    (config, pattern, trim, charset, result))                                                      \
  F(FcPatternAddString, FcBool, (FcPattern * pattern, const char *object, const FcChar8 *value),   \
    (pattern, object, value))                                                                      \
  F(FcPatternGetBool, FcResult, (const FcPattern *pattern, const char *object, int n, FcBool *value), \
    (pattern, object, n, value))                                                                   \
  F(FcPatternGetCharSet, FcResult,                                                                 \
    (const FcPattern *pattern, const char *object, int n, FcCharSet **value),                     \
    (pattern, object, n, value))                                                                   \
  F(FcCharSetFirstPage, FcChar32,                                                                  \
    (const FcCharSet *charset, FcChar32 map[FC_CHARSET_MAP_SIZE], FcChar32 *next),                \
    (charset, map, next))                                                                          \
  F(FcCharSetNextPage, FcChar32,                                                                   \
    (const FcCharSet *charset, FcChar32 map[FC_CHARSET_MAP_SIZE], FcChar32 *next),                \
    (charset, map, next))

// The table's pointers are never NULL (_Nonnull, so Swift calls them without unwrapping); the
// functions' own parameters keep fontconfig's rules.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#pragma clang diagnostic ignored "-Wnullability-extension"

struct swiftshape_fontconfig_functions {
#define SWIFTSHAPE_FONTCONFIG_POINTER(name, result, parameters, arguments)                        \
  result(*_Nonnull name) parameters;
  SWIFTSHAPE_FONTCONFIG_FUNCTIONS(SWIFTSHAPE_FONTCONFIG_POINTER)
#undef SWIFTSHAPE_FONTCONFIG_POINTER
};

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

struct swiftshape_fontconfig_state {
  struct swiftshape_fontconfig_functions functions;
  const char *error;
  pthread_once_t once;
};

// The state lives in a function's static variable: Swift emits the functions of an imported header
// that it calls, but not the header's file-scope variables.
static inline struct swiftshape_fontconfig_state *swiftshape_fontconfig_state(void) {
  static struct swiftshape_fontconfig_state state = {.once = PTHREAD_ONCE_INIT};
  return &state;
}

static inline void swiftshape_fontconfig_load(void) {
  struct swiftshape_fontconfig_state *state = swiftshape_fontconfig_state();
  void *library = dlopen("libfontconfig.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (library == NULL) {
    const char *reason = dlerror();
    state->error = reason != NULL ? reason : "libfontconfig.so.1 cannot be loaded";
    return;
  }
#define SWIFTSHAPE_FONTCONFIG_LOOKUP(name, result, parameters, arguments)                         \
  *(void **)&state->functions.name = dlsym(library, #name);                                        \
  if (*(void **)&state->functions.name == NULL) {                                                  \
    state->error = "libfontconfig.so.1 has no " #name;                                             \
    return;                                                                                        \
  }
  SWIFTSHAPE_FONTCONFIG_FUNCTIONS(SWIFTSHAPE_FONTCONFIG_LOOKUP)
#undef SWIFTSHAPE_FONTCONFIG_LOOKUP
}

/// fontconfig's functions, loaded on first use; NULL, with the reason in *error, when the library
/// cannot be loaded.
static inline const struct swiftshape_fontconfig_functions *_Nullable swiftshape_fontconfig(
    const char *_Nullable *_Nonnull error) {
  struct swiftshape_fontconfig_state *state = swiftshape_fontconfig_state();
  pthread_once(&state->once, swiftshape_fontconfig_load);
  *error = state->error;
  return state->error == NULL ? &state->functions : NULL;
}

#else

/// fontconfig's functions (linked directly).
static inline const struct swiftshape_fontconfig_functions *_Nullable swiftshape_fontconfig(
    const char *_Nullable *_Nonnull error) {
  static const struct swiftshape_fontconfig_functions linked = {
#define SWIFTSHAPE_FONTCONFIG_ADDRESS(name, result, parameters, arguments) name,
      SWIFTSHAPE_FONTCONFIG_FUNCTIONS(SWIFTSHAPE_FONTCONFIG_ADDRESS)
#undef SWIFTSHAPE_FONTCONFIG_ADDRESS
  };
  *error = NULL;
  return &linked;
}

#endif

#pragma clang diagnostic pop

#endif
