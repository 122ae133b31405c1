// libpng's public header, for the PNG encoder (SwiftShapePNG), found through pkg-config.
#ifndef SWIFTSHAPE_CPNG_SHIM_H
#define SWIFTSHAPE_CPNG_SHIM_H

#include <png.h>

#endif
