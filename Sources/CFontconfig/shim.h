// fontconfig's public header, as one module for Swift.
#ifndef SWIFTSHAPE_CFONTCONFIG_SHIM_H
#define SWIFTSHAPE_CFONTCONFIG_SHIM_H

#include <fontconfig/fontconfig.h>

// FC_FILE, FC_INDEX, FC_FAMILY, … are string macros Swift imports as they are; FcPatternBuild and
// FcObjectSetBuild are variadic and are not imported, so callers use FcPatternAdd* and
// FcObjectSetAdd instead and nothing needs wrapping here.

#endif
