// ICU's common library (icu-uc), found through pkg-config: this target carries ICU's compiler and
// linker flags to CUnicodeAlgorithms, which calls ICU. Swift never imports it: ICU's headers
// define the same types as the copy of ICU inside Swift's Foundation, and a Swift module that saw
// both would not compile.
#ifndef SWIFTSHAPE_CICU_SHIM_H
#define SWIFTSHAPE_CICU_SHIM_H

#include <unicode/utypes.h>

#endif
