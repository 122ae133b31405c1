// ICU's common library, loaded when first needed (Linux), and what it says of errors.
#include "unicode_internal.h"

#include <pthread.h>

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

struct swiftshape_icu_functions swiftshape_icu;

static pthread_once_t icu_once = PTHREAD_ONCE_INIT;

static void load_icu(void) {
  // RTLD_LAZY: only the functions called are bound (RTLD_NOW bound all of libicuuc's and
  // libstdc++'s at load: 2.9M instructions, about a millisecond at the start of every command
  // that shapes a paragraph).
  void *library = dlopen(LIBRARY(U_ICU_VERSION_MAJOR_NUM), RTLD_LAZY | RTLD_LOCAL);
  if (library == NULL) return;
#define LOAD(name) *(void **)&swiftshape_icu.name = dlsym(library, SYMBOL(name)); if (swiftshape_icu.name == NULL) return
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
  swiftshape_icu.loaded = 1;
}

int swiftshape_have_icu(void) {
  pthread_once(&icu_once, load_icu);
  return swiftshape_icu.loaded;
}

#else
int swiftshape_have_icu(void) { return 1; }
#endif

const char *swiftshape_icu_error_name(int32_t code) {
  if (code == NO_ICU && !swiftshape_have_icu()) return "libicuuc could not be loaded";
  return ICU(u_errorName)((UErrorCode)code);
}

const char *swiftshape_icu_unicode_version(void) { return U_UNICODE_VERSION; }

